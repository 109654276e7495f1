"""Every ruling of rulings.json about a Red, Green or neutral card or hero
holds, checked mechanically (issue #22 part 3): each has an entry below
naming the test that shows it (a test function pytest collects, in a file
of this folder), or a reason it waits (a ruling on how a card of another
colour, not yet written, meets this one: it waits only while that card is
absent from the data), or a known breach (a strict xfail test: it fails
once the rules are right, so the entry must then move to `CLAIMS`). A
ruling with none of these fails the first test with its id. Then the
rulings no earlier test showed, each from a fixed position.

A ruling's id is ``SECTION/CARD/N``: its section of rulings.json (``Red``,
``Green``, ``Neutral``, or ``Heroes`` for a hero of those colours), the
card's name, and its place among that card's rulings there, from 1
(entries that hold no ruling are not counted). The texts stay in the
database; only the ids are written here."""

from __future__ import annotations

import ast
import functools
import json
from pathlib import Path

import pytest

from codex_helpers import CH, base, do, next_turn, start, stats, thing
from paths import ROOT
from pbem.games.base import SeatSpec
from pbem.games.codex import GAME, GAME_RULES_4, cards, engine, resolve, values

RAW = ROOT.parent / "shared" / "codex_data" / "raw_data"
if not RAW.is_dir():
    RAW = Path("/work/shared/codex_data/raw_data")
HERE = Path(__file__).parent
COLOURS = ("Red", "Green", "Neutral")

#: ruling id -> the test (``FILE::FUNCTION`` in this folder) that shows it
CLAIMS = {
    "Red/Bloodrage Ogre/1": "test_codex_starters.py::test_bloodrage_ogre_goes_home_unless_it_arrived_or_attacked",
    "Red/Bloodrage Ogre/2": "test_codex_starters.py::test_bloodrage_ogre_goes_home_unless_it_arrived_or_attacked",
    "Red/Bloodburn/1": "test_codex_starters.py::test_bloodburn_gathers_blood_runes_and_spends_two_for_1_damage",
    "Red/Pillage/1": "test_codex_starters.py::test_pillage_and_red_minor_spells_cost_1_more_without_a_red_hero",
    "Red/Chaos Mirror/1": "test_codex_anarchy.py::test_chaos_mirror_swaps_printed_atk_for_the_turn_without_targeting",
    "Red/Detonate/1": "test_codex_anarchy.py::test_detonate_may_trash_your_own_worker",
    "Red/Detonate/2": "test_codex_anarchy.py::test_detonate_trashes_a_worker_unseen_or_a_building_card_and_itself",
    "Red/Detonate/3": "test_codex_anarchy.py::test_detonate_trashes_a_worker_unseen_or_a_building_card_and_itself",
    "Red/Maximum Anarchy/1": "test_codex_anarchy.py::test_maximum_anarchy_destroys_every_unit_and_hero_zane_too",
    "Red/Maximum Anarchy/2": "test_codex_anarchy.py::test_maximum_anarchy_destroys_every_unit_and_hero_zane_too",
    "Red/Maximum Anarchy/3": "test_codex_anarchy.py::test_maximum_anarchy_destroys_every_unit_and_hero_zane_too",
    "Red/Calypso Vystari/1": "test_codex_anarchy.py::test_calypso_vystari_sidelines_a_patroller_only_after_a_spell",
    "Red/Calypso Vystari/2": "test_codex_anarchy.py::test_calypso_vystari_sidelines_a_patroller_only_after_a_spell",
    "Red/Gunpoint Taxman/1": "test_codex_anarchy.py::test_gunpoint_taxman_takes_a_gold_for_each_patroller_it_kills",
    "Red/Chameleon Lizzo/1": "test_codex_anarchy.py::test_chameleon_lizzo_sneaks_and_goes_home_at_the_end_of_every_turn",
    "Red/Chameleon Lizzo/2": "test_codex_anarchy.py::test_chameleon_lizzo_sneaks_and_goes_home_at_the_end_of_every_turn",
    "Red/Marauder/1": "test_codex_anarchy.py::test_marauder_boosted_trashes_a_worker_of_either_player",
    "Red/Sanatorium/1": "test_codex_anarchy.py::test_sanatorium_draws_then_puts_two_units_into_play_free_with_haste_and_ephemeral",
    "Red/Sanatorium/2": "test_codex_anarchy.py::test_sanatorium_draws_then_puts_two_units_into_play_free_with_haste_and_ephemeral",
    "Red/Desperation/1": "test_codex_blood.py::test_desperation_draws_only_if_it_was_the_last_card_in_hand",
    "Red/Desperation/2": "test_codex_blood.py::test_desperation_with_an_empty_hand_leaves_the_game_and_draws_three",
    "Red/Kidnapping/1": "test_codex_blood.py::test_kidnapping_takes_a_tech_0_to_2_unit_for_the_turn_ready_with_haste",
    "Red/Kidnapping/2": "test_codex_blood.py::test_kidnapping_a_unit_that_dies_sends_it_to_its_owners_discard_pile",
    "Red/War Drums/1": "test_codex_blood.py::test_war_drums_each_unit_gets_1_atk_per_unit_its_player_controls",
    "Red/Rickety Mine/1": "test_codex_blood.py::test_rickety_mine_has_no_haste",
    "Red/Rickety Mine/2": "test_codex_blood.py::test_rickety_mine_gives_3_gold_and_on_tails_is_sacrificed_with_2_damage_to_your_base",
    "Red/Captured Bugblatter/1": "test_codex_rulings.py::test_captured_bugblatter_in_2v2_hits_the_other_teams_one_base_once",
    "Red/Captured Bugblatter/2": "test_codex_blood.py::test_captured_bugblatter_any_unit_dying_hurts_the_opposing_base_itself_too",
    "Red/Land Octopus/1": "test_codex_blood.py::test_land_octopus_cannot_patrol_and_costs_two_workers_each_upkeep",
    "Red/Ember Sparks/1": "test_codex_fire.py::test_ember_sparks_divides_3_among_one_to_three_patrollers_or_buildings",
    "Red/Ember Sparks/2": "test_codex_fire.py::test_ember_sparks_with_hotter_fire_divides_4_still_among_three_at_most",
    "Red/Burning Volley/1": "test_codex_fire.py::test_burning_volley_divides_5_one_each_at_least_an_ultimate",
    "Red/Burning Volley/2": "test_codex_fire.py::test_burning_volley_with_hotter_fire_divides_6_among_up_to_six",
    "Red/Bamstamper Lizzo/1": "test_codex_fire.py::test_bamstamper_lizzo_must_hit_a_unit_its_own_self_if_need_be",
    "Red/Firehouse/1": "test_codex_fire.py::test_firehouse_readies_when_its_2_damage_destroys_no_haste",
    "Red/Firehouse/2": "test_codex_fire.py::test_firehouse_readies_when_its_2_damage_destroys_no_haste",
    "Red/Firehouse/3": "test_codex_fire.py::test_firehouse_on_an_illusion_does_not_ready",
    "Red/Hotter Fire/1": "test_codex_rulings.py::test_hotter_fire_adds_to_the_firebird_and_to_jaina_s_and_zane_s_max_level_damage",
    "Red/Hotter Fire/2": "test_codex_fire.py::test_hotter_fire_leaves_sparkshot_alone",
    "Red/Hotter Fire/3": "test_codex_fire.py::test_hotter_fire_adds_1_to_red_spells_and_abilities_never_to_combat_damage",
    "Red/Cinderblast Dragon/1": "test_codex_fire.py::test_cinderblast_dragon_casts_a_fire_spell_free_from_hand_or_codex_arriving_and_attacking",
    "Red/Cinderblast Dragon/2": "test_codex_fire.py::test_cinderblast_dragon_casts_a_fire_spell_free_from_hand_or_codex_arriving_and_attacking",
    "Green/Ironbark Treant/1": "test_codex_starters.py::test_ironbark_treant_patrols_with_2_armor_and_2_less_atk",
    "Green/Ironbark Treant/2": "test_codex_rulings.py::test_ironbark_treant_has_its_armor_again_on_the_next_opponents_turn_in_a_free_for_all",
    "Green/Spore Shambler/1": "test_codex_starters.py::test_spore_shambler_moves_its_runes",
    "Green/Spore Shambler/2": "test_codex_starters.py::test_spore_shambler_moves_its_runes",
    "Green/Verdant Tree/1": "test_codex_starters.py::test_verdant_tree_is_a_building_that_heals_and_builds_at_once",
    "Green/Verdant Tree/2": "test_codex_starters.py::test_verdant_tree_is_a_building_that_heals_and_builds_at_once",
    "Green/Rich Earth/1": "test_codex_starters.py::test_rich_earth_makes_hiring_free_once_a_turn",
    "Green/Rich Earth/2": "test_codex_rulings.py::test_rich_earth_still_pays_a_hiring_cost_increase",
    "Green/Rampant Growth/1": "test_codex_starters.py::test_rampant_growth_gives_2_atk_and_2_armor_this_turn",
    "Green/Moment's Peace/1": "test_codex_balance.py::test_moments_peace_no_patrol_and_no_attack_on_anything_of_yours_until_your_next_turn",
    "Green/Moment's Peace/2": "test_codex_rulings.py::test_moments_peace_cast_by_the_second_teammate_guards_the_team_base",
    "Green/Nature Reclaims/1": "test_codex_balance.py::test_nature_reclaims_trashes_an_upgrade_ongoing_spell_or_building_card_and_itself",
    "Green/Circle of Life/1": "test_codex_balance.py::test_circle_of_life_trades_a_green_unit_for_one_a_tech_higher_from_the_codex",
    "Green/Circle of Life/2": "test_codex_balance.py::test_circle_of_life_only_green_units_and_nothing_when_none_fits",
    "Green/Final Showdown/1": "test_codex_balance.py::test_final_showdown_on_midori_and_two_hunters_for_the_opponent",
    "Green/Fairie Dragon/1": "test_codex_balance.py::test_fairie_dragon_feather_runes",
    "Green/Fairie Dragon/3": "test_codex_balance.py::test_fairie_dragon_feather_runes",
    "Green/Fairie Dragon/4": "test_codex_balance.py::test_fairie_dragon_feather_runes",
    "Green/Dothram Horselord/1": "test_codex_balance.py::test_dothram_horselord_joins_the_strongest_player_at_its_controllers_upkeep",
    "Green/Dothram Horselord/2": "test_codex_balance.py::test_dothram_horselord_overrides_a_control_taken_once",
    "Green/Wandering Mimic/1": "test_codex_balance.py::test_wandering_mimic_has_what_some_other_unit_or_hero_has",
    "Green/Tyrannosaurus Rex/1": "test_codex_balance.py::test_tyrannosaurus_rex_destroys_up_to_two_units_upgrades_or_workers",
    "Green/Tyrannosaurus Rex/2": "test_codex_balance.py::test_tyrannosaurus_rex_destroys_up_to_two_units_upgrades_or_workers",
    "Green/Tyrannosaurus Rex/3": "test_codex_balance.py::test_tyrannosaurus_rex_destroys_up_to_two_units_upgrades_or_workers",
    "Green/Behind the Ferns/1": "test_codex_feral.py::test_behind_the_ferns_reads_atk_before_a_bonus_while_attacking_a_building",
    "Green/Behind the Ferns/2": "test_codex_feral.py::test_behind_the_ferns_and_midoris_band_depend_on_the_order_of_events",
    "Green/Feral Strike/1": "test_codex_feral.py::test_feral_strike_units_of_another_spec_with_a_tech_building_of_their_level",
    "Green/Gigadon/1": "test_codex_feral.py::test_gigadon_costs_less_per_green_unit_never_below_0",
    "Green/Gigadon/2": "test_codex_feral.py::test_gigadon_costs_less_per_green_unit_never_below_0",
    "Green/Moss Ancient/1": "test_codex_feral.py::test_moss_ancient_squirrels_on_arrival_and_attack_haste_and_invisible_while_it_stays",
    "Green/Polymorph: Squirrel/1": "test_codex_growth.py::test_polymorph_squirrel_until_the_casters_next_upkeep",
    "Green/Polymorph: Squirrel/2": "test_codex_growth.py::test_polymorph_squirrel_can_kill_even_the_indestructible",
    "Green/Polymorph: Squirrel/3": "test_codex_growth.py::test_polymorph_squirrel_can_kill_even_the_indestructible",
    "Green/Polymorph: Squirrel/4": "test_codex_growth.py::test_polymorph_squirrel_until_the_casters_next_upkeep",
    "Green/Stampede/1": "test_codex_growth.py::test_stampede_3_atk_3_armor_and_excess_to_the_base_before_overpower",
    "Green/Galina Glimmer/1": "test_codex_growth.py::test_galina_glimmer_a_gold_for_every_two_green_units",
    "Green/Galina Glimmer/2": "test_codex_growth.py::test_galina_glimmer_a_gold_for_every_two_green_units",
    "Green/Artisan Mantis/1": "test_codex_growth.py::test_artisan_mantis_repairs_up_to_3_on_a_building",
    "Green/Blooming Elm/1": "test_codex_growth.py::test_blooming_elm_overpower_for_runes_and_runes_for_those_without",
    "Green/Might of Leaf and Claw/1": "test_codex_growth.py::test_might_of_leaf_and_claw_growth_runes_for_combat_damage_and_5_5_from_five",
    "Green/Might of Leaf and Claw/2": "test_codex_growth.py::test_might_of_leaf_and_claw_growth_runes_for_combat_damage_and_5_5_from_five",
    "Green/Might of Leaf and Claw/3": "test_codex_growth.py::test_might_of_leaf_and_claw_growth_runes_for_combat_damage_and_5_5_from_five",
    "Green/Guargum, Eternal Sentinel/1": "test_codex_growth.py::test_guargum_growth_spells_free_without_a_growth_hero",
    "Neutral/Brick Thief/1": "test_codex_cards.py::test_brick_thief_arrives_and_attacks_damage_and_repair_and_resist",
    "Neutral/Brick Thief/2": "test_codex_cards.py::test_brick_thief_arrives_and_attacks_damage_and_repair_and_resist",
    "Neutral/Wither/1": "test_codex_cards.py::test_wither_kills_an_x1_even_with_armor",
    "Neutral/The Boot/1": "test_codex_cards.py::test_wrecking_ball_the_boot_and_intimidate",
    "Neutral/Intimidate/1": "test_codex_cards.py::test_wrecking_ball_the_boot_and_intimidate",
    "Neutral/Final Smash/1": "test_codex_cards.py::test_final_smash_parts_in_order",
    "Neutral/Final Smash/2": "test_codex_cards.py::test_final_smash_parts_in_order",
    "Neutral/Final Smash/3": "test_codex_cards.py::test_final_smash_parts_in_order",
    "Neutral/Trojan Duck/1": "test_codex_cards.py::test_trojan_duck_obliterates_and_hits_a_building",
    "Neutral/Trojan Duck/2": "test_codex_cards.py::test_trojan_duck_obliterates_and_hits_a_building",
    "Neutral/Harmony/1": "test_codex_cards.py::test_harmony_dancers_and_stopping_the_music",
    "Neutral/Harmony/2": "test_codex_cards.py::test_harmony_dancers_and_stopping_the_music",
    "Neutral/Harmony/3": "test_codex_cards.py::test_harmony_is_sacrificed_without_flipping_when_the_hero_goes",
    "Neutral/Harmony/4": "test_codex_cards.py::test_harmony_dancers_and_stopping_the_music",
    "Neutral/Discord/1": "test_codex_cards.py::test_discord_gives_minus_2_minus_1_to_low_tech_units",
    "Neutral/Two Step/1": "test_codex_cards.py::test_two_step_partners_and_losing_one",
    "Neutral/Two Step/2": "test_codex_cards.py::test_two_step_is_sacrificed_when_a_partner_changes_control",
    "Neutral/Appel Stomp/1": "test_codex_cards.py::test_appel_stomp_sidelines_draws_and_may_go_on_top",
    "Neutral/Nimble Fencer/1": "test_codex_cards.py::test_nimble_fencer_gives_virtuosos_haste",
    "Neutral/Star-Crossed Starlet/1": "test_codex_cards.py::test_helpful_turtle_heals_and_the_active_player_orders_upkeep",
    "Neutral/Star-Crossed Starlet/2": "test_codex_cards.py::test_star_crossed_starlet_gets_atk_from_damage",
    "Neutral/Grounded Guide/1": "test_codex_cards.py::test_grounded_guide_stacks",
    "Neutral/Maestro/1": "test_codex_cards.py::test_maestro_makes_virtuosos_free_and_gives_them_a_wrecking_ability",
    "Neutral/Blademaster/1": "test_codex_cards.py::test_blademaster_gives_swift_strike",
    "Neutral/Dancer / Angry Dancer/1": "test_codex_cards.py::test_harmony_dancers_and_stopping_the_music",
    "Heroes/Troq Bashar/1": "test_codex_cards.py::test_troq_bashar_bands",
    "Heroes/River Montoya/1": "test_codex_cards.py::test_river_montoya_bands",
    "Heroes/Captain Zane/1": "test_codex_anarchy.py::test_zane_gets_nothing_when_another_unit_or_his_spell_kills",
    "Heroes/Captain Zane/2": "test_codex_anarchy.py::test_zane_max_level_shoves_a_patroller_then_hits_it_and_its_kill_counts_as_his",
    "Heroes/Captain Zane/3": "test_codex_anarchy.py::test_zane_max_level_with_a_full_patrol_zone_only_hits",
    "Heroes/Drakk Ramhorn/1": "test_codex_blood.py::test_drakk_max_level_the_first_unit_from_hand_each_turn_gets_haste_for_good",
    "Heroes/Drakk Ramhorn/2": "test_codex_blood.py::test_drakk_max_level_counts_a_unit_put_into_play_from_the_hand_not_one_a_spell_makes",
    "Heroes/Drakk Ramhorn/3": "test_codex_blood.py::test_drakk_max_level_counts_a_unit_put_into_play_from_the_hand_not_one_a_spell_makes",
    "Heroes/Drakk Ramhorn/4": "test_codex_rulings.py::test_drakk_dying_in_2v2_hits_the_other_teams_one_base_once",
    "Heroes/Drakk Ramhorn/5": "test_codex_blood.py::test_drakk_max_level_the_first_unit_from_hand_each_turn_gets_haste_for_good",
    "Heroes/Master Midori/1": "test_codex_balance.py::test_master_midori_numbers_runes_damage_and_patrol_slots_are_no_abilities",
    "Heroes/Master Midori/2": "test_codex_balance.py::test_master_midori_a_unit_given_an_ability_loses_the_bonus_and_may_die",
    "Heroes/Master Midori/3": "test_codex_balance.py::test_master_midori_numbers_runes_damage_and_patrol_slots_are_no_abilities",
    "Heroes/Master Midori/4": "test_codex_feral.py::test_gigadon_costs_less_per_green_unit_never_below_0",
    "Heroes/Calamandra Moss/1": "test_codex_feral.py::test_calamandra_moss_max_band_puts_a_tiger_from_the_codex_into_play",
}

#: ruling id -> (the card of another colour it is about, why it waits):
#: accepted only while that card is not written in the data
WAITS = {
    "Red/Chaos Mirror/2": ("Manufactured Truth", "how a copy effect (blue) reads printed ATK Chaos Mirror swapped"),
    "Green/Fairie Dragon/2": ("Manufactured Truth", "a copy (blue) of a unit with a feather rune has no rune"),
    "Green/Polymorph: Squirrel/5": ("Manufactured Truth", "a copy (blue) of a polymorphed unit is a 1/1 Squirrel"),
}

#: ruling id -> the strict xfail test that shows the rules breaking it today
BREACHES: dict[str, str] = {}


def ruling_ids() -> list[str]:
    """The ids of the rulings on Red, Green and neutral cards and heroes, in
    the database's order."""
    if not RAW.is_dir():
        pytest.skip("the card database is not at hand")
    data = json.loads((RAW / "rulings.json").read_text())
    colour = {h["name"]: h.get("color") for h in json.loads((RAW / "heroes.json").read_text())}
    out = []
    for section in (*COLOURS, "Heroes"):
        seen: dict[str, int] = {}
        for entry in data[section]:
            if "ruling" not in entry or (section == "Heroes" and colour.get(entry["card"]) not in COLOURS):
                continue
            seen[entry["card"]] = seen.get(entry["card"], 0) + 1
            out.append(f"{section}/{entry['card']}/{seen[entry['card']]}")
    return out


@functools.cache
def _functions(file: str) -> dict[str, ast.FunctionDef]:
    """The module-level functions of a test file of this folder."""
    tree = ast.parse((HERE / file).read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _collected(where: str) -> str | None:
    """Why ``FILE::FUNCTION`` is not a test pytest collects in this folder (None if it is)."""
    file, _, func = where.partition("::")
    if not (file.startswith("test_") and file.endswith(".py") and (HERE / file).is_file()):
        return f"{file}: no test file of this folder"
    if not func.startswith("test_") or func not in _functions(file):
        return f"{where}: no test function of that name"
    return None


def test_every_ruling_on_red_green_and_neutral_cards_is_claimed():
    ids = ruling_ids()
    assert len(ids) == len(set(ids))
    accounted = set(CLAIMS) | set(WAITS) | set(BREACHES)
    missing = [i for i in ids if i not in accounted]
    assert not missing, f"rulings no test claims: {missing}"
    stale = sorted(accounted - set(ids))
    assert not stale, f"entries for no ruling of the database: {stale}"
    assert not set(CLAIMS) & (set(WAITS) | set(BREACHES)) and not set(WAITS) & set(BREACHES)


def test_every_claim_names_a_test_that_pytest_collects():
    bad = [why for where in [*CLAIMS.values(), *BREACHES.values()] if (why := _collected(where))]
    assert not bad, bad


def test_a_ruling_waits_only_while_the_card_it_is_about_is_unwritten():
    written = [(rid, card) for rid, (card, _) in WAITS.items() if card in cards.CARDS]
    assert not written, f"now written: test these rulings and move them to CLAIMS: {written}"


def test_a_known_breach_is_a_strict_xfail():
    for rid, where in BREACHES.items():
        file, _, func = where.partition("::")
        marks = [ast.unparse(d) for d in _functions(file)[func].decorator_list]
        assert any("xfail" in m and "strict=True" in m for m in marks), (rid, marks)


# --- the rulings no earlier test showed ------------------------------------------------------

SEATS_2V2 = [SeatSpec("alice", "red"), SeatSpec("bob", "blue"), SeatSpec("carol", "red"), SeatSpec("dave", "blue")]


def dragon(*lines: str, **options: str):
    """A fixed 2v2 position (turn order alice, carol, bob, dave; alice and carol a team)."""
    raw = {"mode": "2v2", "scenario": "\n".join(lines), **{f"p{i}_starter": "neutral" for i in range(1, 5)}}
    raw.update(options)
    return GAME.advance(GAME.setup(GAME.options(raw), SEATS_2V2, CH), CH)


def ffa(*lines: str):
    """A fixed free-for-all position of four (alice, bob, carol, dave in turn)."""
    raw = {"mode": "ffa", "scenario": "\n".join(lines), **{f"p{i}_starter": "neutral" for i in range(1, 5)}}
    return GAME.advance(GAME.setup(GAME.options(raw), [SeatSpec(s) for s in ("alice", "bob", "carol", "dave")], CH), CH)


def kill(state, seat: str, name: str):
    """`seat`'s `name` dies (as by any effect), its triggers resolved."""
    engine.die(state, [thing(state, seat, name)], CH)
    resolve.run(state, CH)
    return GAME.advance(state, CH)


def team_hp(state) -> list[int]:
    return [side.base_hp for side in GAME.view(state, "alice").sides]


def test_captured_bugblatter_in_2v2_hits_the_other_teams_one_base_once():
    st = dragon("p1.units = Captured Bugblatter, Older Brother", p1="blood")
    st = kill(st, "alice", "Older Brother")
    assert team_hp(st) == [30, 29, 30, 29], "one damage to the one base bob and dave share"


def test_drakk_dying_in_2v2_hits_the_other_teams_one_base_once():
    st = dragon("p1.hero = 1", p1="blood")
    st = kill(st, "alice", "Drakk Ramhorn")
    assert team_hp(st) == [30, 29, 30, 29]


def test_ironbark_treant_has_its_armor_again_on_the_next_opponents_turn_in_a_free_for_all():
    st = ffa("p4.units = Ironbark Treant", "p4.patrol = scavenger=ironbark-treant", "p1.units = Tenderfoot")
    tree = thing(st, "dave", "Ironbark Treant")
    assert values.armor_left(st, tree) == 2
    st = do(st, "attack tenderfoot dave:ironbark-treant")
    assert values.armor_left(st, tree) == 1 and stats(st, "dave", "Ironbark Treant")[2] == 0
    st = next_turn(st)
    assert st.active == "bob" and values.armor_left(st, tree) == 2, "2 new armor on bob's turn"


def test_rich_earth_still_pays_a_hiring_cost_increase():
    """Hard Times Mill makes hiring cost 1 more: with Rich Earth it costs that 1."""
    st = start("p1.units = Rich Earth", "p1.hand = Older Brother", p1="bashing", p2="finesse", map="hard-times-mill")
    gold = st.players["alice"].gold
    st = do(st, "hire older-brother")
    assert st.players["alice"].gold == gold - 1


def test_hotter_fire_adds_to_the_firebird_and_to_jaina_s_and_zane_s_max_level_damage():
    st = start("turn = 3", "p1.hero = 7", "p1.units = Hotter Fire, Molting Firebird", "p2.units = Maestro, Iron Man",
               "p2.hero = 1", p1="fire", p2="finesse")
    st = do(st, "attack molting-firebird opp:base")
    assert [stats(st, "bob", n)[2] for n in ("Maestro", "Iron Man", "River Montoya")] == [2, 2, 2]
    hp = base(st, "bob")
    st = do(st, "use jaina-stormborne blast target=opp:base")
    assert base(st, "bob") == hp - 4
    st = start("turn = 3", "p1.hero = 5", "p1.gold = 0", "p1.units = Hotter Fire", "p2.units = Iron Man",
               "p2.patrol = elite=iron-man", p1="anarchy", p2="finesse")
    st = do(st, "level 1")  # max level: shove the one patroller, then hit it
    st = do(st, "choose scavenger")
    assert stats(st, "bob", "Iron Man")[2] == 2


def _bobs_attacks(caster: str, game=GAME):
    """Bob's attacks after `caster` (``p1``: alice, ``p3``: carol) cast
    Moment's Peace, under the rules of `game` (every call through it)."""
    raw = {"mode": "2v2", "scenario": "\n".join([
        "turn = 3", f"{caster}.hand = Moment's Peace", f"{caster}.hero = 1", f"{caster}.gold = 5",
        "p1.units = Older Brother", "p3.units = Tenderfoot", "p2.units = Iron Man"]),
        **{f"p{i}_starter": "neutral" for i in range(1, 5)}, caster: "balance"}
    st = game.advance(game.setup(game.options(raw), SEATS_2V2, CH), CH)

    def play(st, text):
        cmd = game.presentation.parse(text, st, st.active)
        st = game.advance(game.apply(st, st.active, cmd, CH), CH)
        if st.phase == "tech":
            cmd = next(c for c in game.legal(st, st.active) if not c.choices.first)
            st = game.advance(game.apply(st, st.active, cmd, CH), CH)
        return st

    me = "alice" if caster == "p1" else "carol"
    while st.active != me:
        st = play(st, "end")
    st = play(st, "play moment-s-peace")
    while st.active != "bob":
        st = play(st, "end")
    return sorted(t for c in game.legal(st, "bob") if (t := game.presentation.format(c, st, "bob")).startswith("attack"))


def test_moments_peace_in_2v2_guards_the_casters_things_and_the_team_base_not_the_teammates():
    assert _bobs_attacks("p1") == ["attack iron-man carol:tenderfoot"]
    assert _bobs_attacks("p1", GAME_RULES_4) == ["attack iron-man carol:tenderfoot"]


def test_moments_peace_cast_by_the_second_teammate_guards_the_team_base():
    """Rules 5: the team's one base is "yours" for either teammate."""
    assert _bobs_attacks("p3") == ["attack iron-man alice:older-brother"]


def test_under_rules_4_moments_peace_cast_by_the_second_teammate_leaves_the_team_base_open():
    """The breach rules 4 keeps, for the games begun under them (`codex.editions`)."""
    assert _bobs_attacks("p3", GAME_RULES_4) == ["attack iron-man alice:base", "attack iron-man alice:older-brother"]
