"""The `pbem` command line: parse, call a library function, print.

One module per family of commands (`keys`, `game`, `playing`,
`long_game`, `files`, `watch`, `mail`, `screen`, `demo`; `status` alone), sharing the
error bridge (`base.PbemGroup`) and the common options (`options`). The
top-level group is lazy: `COMMANDS` names each command, its module and
the first sentence of its help, so that `pbem --help` imports no family
and `pbem status` only its own. A new command is defined in its family's
module and gets a row here (tests/cli/test_cli_tree.py checks the rows against
the commands). Heavy modules (games, crypto) are imported inside the
commands.
"""

from __future__ import annotations

import click

from pbem import __version__
from pbem.cli.base import LazyGroup

#: command -> ("module:attribute", the first sentence of its help)
COMMANDS: dict[str, tuple[str, str]] = {
    "agent": ("pbem.cli.keys:agent",
              "Keep unlocked keys in memory for a while, so a passphrase is asked once: `pbem agent` starts it "
              "(in the background), the next command that unlocks a key gives it the key, later ones take it "
              "from there."),
    "apply": ("pbem.cli.files:apply_cmd",
              "Add received files to DIR: pbem files, or texts and saved mails (.eml, .mbox; '-': standard input) "
              "holding armored blocks or attached files."),
    "armor": ("pbem.cli.files:armor", "Print each pbem FILE as an armored text block, to paste into a mail."),
    "audit": ("pbem.cli.files:audit", "Replay a finished game with every secret revealed."),
    "dearmor": ("pbem.cli.files:dearmor",
                "Find every armored block (and attached pbem file) in texts and saved mails (.eml, .mbox; '-': "
                "standard input) and write out the files."),
    "demo": ("pbem.cli.demo:demo",
             "Bots play a complete GAME through the real file protocol, in a throw-away key store and folder "
             "(unless --keys and --dir keep them), then verify and audit it."),
    "handover": ("pbem.cli.long_game:handover", "Hand your seat over to another player, who plays on with its own key."),
    "id": ("pbem.cli.keys:id", "Your identities and the address book of other players."),
    "info": ("pbem.cli.game:info",
             "What GAME is: title, seats, and the options `pbem new` takes, with their defaults (scenario options "
             "fix hidden cards: hotseat only)."),
    "join": ("pbem.cli.game:join",
             "Join a game: make your folder DIR from the GENESIS (and any later files) you received, checked first."),
    "legal": ("pbem.cli.playing:legal", "Your legal commands now, in the game's notation."),
    "log": ("pbem.cli.playing:log", "Every file of the game, one line each, as anyone may read it."),
    "mail": ("pbem.cli.mail:mail",
             "Play by mail: send each other party what it lacks, fetch and apply what arrived."),
    "new": ("pbem.cli.game:new", "Create a new GAME in the empty folder DIR."),
    "outbox": ("pbem.cli.files:outbox",
               "The files each other party may still lack (after the last file it wrote)."),
    "page": ("pbem.cli.screen:page",
             "One self-contained HTML page of the game as NAME sees it: the board, whose turn it is, what is "
             "pending, NAME's legal commands as `pbem submit` lines to copy, the log and the outcome."),
    "pause": ("pbem.cli.long_game:pause",
              "Announce a pause (a holiday): every clock stops meanwhile, within the pauses the game agreed "
              "(pbem new --pauses)."),
    "play": ("pbem.cli.screen:play",
             "Interactive: a compact board, whose turn it is, and your legal commands as a numbered menu, fitted "
             "to an 80x24 terminal."),
    "referee": ("pbem.cli.watch:referee",
                "The automated referee: answer every obligation as soon as its input arrives."),
    "resign": ("pbem.cli.long_game:resign",
               "Resign: your side loses and the game ends (a signed file; the audit still runs)."),
    "serve": ("pbem.cli.screen:serve",
              "Play in your browser: a page on this machine alone (127.0.0.1) with NAME's games (DIR: game folders "
              "or folders of games; default: every game `pbem status --all` knows), the board, and your moves to "
              "click."),
    "show": ("pbem.cli.playing:show",
             "The board as NAME may see it (default: as an observer; in colour on a terminal, NO_COLOR is "
             "honoured)."),
    "status": ("pbem.cli.status:status",
               "Whose turn it is, what is pending, and the outcome (DIR: the current folder unless given)."),
    "submit": ("pbem.cli.playing:submit", "Check and write your turn into DIR; prints the files written."),
    "sync": ("pbem.cli.playing:sync", "Write every file NAME owes that needs no decision."),
    "timeout": ("pbem.cli.long_game:timeout", "A seat's time is out."),
    "undo": ("pbem.cli.playing:undo", "Undo by agreement: take back your last move if every other seat accepts."),
    "verify": ("pbem.cli.files:verify", "Check every file of the game; exit 1 with the first failure."),
    "watch": ("pbem.cli.watch:watch",
              "Follow a game folder that a sync tool (Syncthing, Dropbox, a network drive) keeps in step: read "
              "each new file once it is complete, write NAME's automatic answers, and say when a decision is "
              "NAME's."),
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
def cli() -> None:
    """Play board and card games with hidden information by mail or shared folder.

    Every turn is a signed file checked against the chain of files before it;
    hidden cards are sealed to the players allowed to see them.
    """


def main() -> None:
    cli(prog_name="pbem")
