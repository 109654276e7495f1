// pbem serve: the page's one script. Plain, no library, talks only to its
// own server: GET KEY/main for a fresh board, POST KEY/check, KEY/submit and
// KEY/undo with the session token, and the event stream ../events.
(function () {
  "use strict";
  var body = document.body;
  var token = document.querySelector('meta[name="pbem-token"]').content;
  var base = location.pathname.replace(/\/+$/, "");
  var LIMIT = 12; // candidates listed whole; above that the next word is asked
  var sel = { words: [], picks: [], chosen: null, action: null };

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // body.dataset.busy counts the requests in flight (a test waits for none, not for a time)
  function request(method, path, data) {
    var init = { method: method, headers: { "X-Pbem-Token": token }, cache: "no-store" };
    body.dataset.busy = (+(body.dataset.busy || 0) + 1).toString();
    if (data !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(data);
    }
    return fetch(path, init).then(function (r) {
      var type = r.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === 0) { return r.json(); }
      return r.text().then(function (t) { return { ok: false, error: t.trim() || ("HTTP " + r.status) }; });
    }, function () { return { ok: false, error: "the pbem serve process does not answer (stopped?)" }; })
      .then(function (answer) {
        // the answer's own handlers run first (a chained request counts itself before this one ends)
        setTimeout(function () { body.dataset.busy = (+body.dataset.busy - 1).toString(); }, 0);
        return answer;
      });
  }

  function flash(kind, text, hint) {
    var f = $("flash");
    f.className = "flash " + (kind || "");
    f.textContent = text || "";
    if (hint) { f.appendChild(el("span", "hint", hint)); }
  }

  // -- matching board picks and words against the legal moves ---------------------------
  // names as the notation may spell them: "Double Agent", "granfalloon-flagbearer"
  function norm(s) { return String(s).toLowerCase().replace(/[\s_-]+/g, " "); }
  function esc(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  // where `name` stands in `text` from `from` on as a whole name (not after a ':' or inside a word)
  function find(text, name, from) {
    var re = new RegExp("(^|[^a-z0-9:._])" + esc(norm(name)) + "(?![a-z0-9._])", "g");
    re.lastIndex = from;
    var m = re.exec(text);
    return m ? m.index + m[1].length + norm(name).length : -1;
  }
  function matches(cmd, picks, ordered) {
    var text = norm(cmd), at = 0, i, j, end;
    for (i = 0; i < picks.length; i++) {
      var found = -1;
      for (j = 0; j < picks[i].length && found < 0; j++) {
        end = find(text, picks[i][j], ordered ? at : 0);
        if (end >= 0) { found = end; }
      }
      if (found < 0) { return false; }
      at = found;
    }
    return true;
  }
  function moveButtons() { return Array.prototype.slice.call(document.querySelectorAll("#moves button.move")); }
  function words(cmd) { return cmd.trim().split(/\s+/); }
  function candidates() {
    var all = moveButtons(), out = [];
    all.forEach(function (b) {
      var w = words(b.dataset.cmd), ok = true, i;
      for (i = 0; i < sel.words.length; i++) { if (w[i] !== sel.words[i]) { ok = false; } }
      if (ok) { out.push(b); }
    });
    if (!sel.picks.length) { return out; }
    var ordered = out.filter(function (b) { return matches(b.dataset.cmd, sel.picks, true); });
    return ordered.length ? ordered : out.filter(function (b) { return matches(b.dataset.cmd, sel.picks, false); });
  }

  // -- the chooser: picks, next words, the moves left ---------------------------------------
  function draw() {
    var box = $("chooser");
    if (!box) { return; }
    var left = candidates(), shown = new Set(left);
    box.textContent = "";
    if (sel.words.length || sel.picks.length) {
      var trail = el("div", "trail");
      trail.appendChild(el("span", "", "chosen:"));
      sel.words.forEach(function (w) { trail.appendChild(el("code", "", w)); });
      sel.picks.forEach(function (p) { trail.appendChild(el("code", "", p[0])); });
      var again = el("button", "", "Start again");
      again.type = "button";
      again.addEventListener("click", function () { reset(); focusFirst(); });
      trail.appendChild(again);
      box.appendChild(trail);
    }
    var list = left.length <= LIMIT;
    if (!list) {
      var next = [], seen = {};
      left.forEach(function (b) {
        var w = words(b.dataset.cmd)[sel.words.length];
        if (w !== undefined && !seen[w]) { seen[w] = 1; next.push(w); }
      });
      if (next.length > 1) {
        box.appendChild(el("p", "hint", left.length + " moves: choose " + (sel.words.length ? "the next word" : "what to do")
          + (sel.words.length ? "" : ", or click the board")));
        var steps = el("div", "steps");
        next.forEach(function (w) {
          var b = el("button", "step", w);
          b.type = "button";
          b.addEventListener("click", function () { sel.words.push(w); draw(); focusFirst(); });
          steps.appendChild(b);
        });
        box.appendChild(steps);
      } else { list = true; }
    }
    if (list && !left.length) { box.appendChild(el("p", "hint", "No legal move matches: start again.")); }
    moveButtons().forEach(function (b) { b.parentNode.hidden = !(list && shown.has(b)); });
    document.querySelectorAll(".pick-target").forEach(function (p) {
      var on = usable(p, left);
      p.classList.toggle("pickable", on);
      if (on) { p.setAttribute("tabindex", "0"); } else { p.removeAttribute("tabindex"); }
      p.setAttribute("aria-disabled", on ? "false" : "true");
      p.classList.toggle("picked", sel.picks.some(function (k) { return k.indexOf(p.dataset.pickAs) >= 0; }));
    });
    if (list && left.length === 1 && (sel.picks.length || sel.words.length)) { choose(left[0].dataset.cmd); }
  }
  function reset() {
    sel.words = []; sel.picks = []; sel.chosen = null; sel.action = null;
    var c = $("confirm");
    if (c) { c.hidden = true; }
    draw();
  }
  function focusFirst() {
    var b = document.querySelector("#chooser button.step, #moves li:not([hidden]) button");
    if (b) { b.focus(); }
  }

  function aliases(node) {
    var d = node.dataset;
    if (d.pick) { return d.pick.split("|"); }
    return [d.card || d.word || d.cell || d.space].filter(Boolean);
  }
  // every board element that names something a legal move names may be
  // picked; `draw` keeps only those that still narrow the moves left
  function markPickables() {
    var cmds = moveButtons().map(function (b) { return b.dataset.cmd; });
    if (!cmds.length) { return; }
    document.querySelectorAll("#board [data-pick], #board [data-card], #board [data-word], #board [data-cell]")
      .forEach(function (node) {
        var names = aliases(node).filter(function (a) { return cmds.some(function (c) { return find(norm(c), a, 0) >= 0; }); });
        if (!names.length) { return; }
        node.classList.add("pick-target");
        node.dataset.pickAs = names[0];
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", "choose " + names[0]);
        node.pickNames = names;
      });
  }
  function usable(node, left) {
    var picks = sel.picks.concat([node.pickNames]);
    return left.some(function (b) { return matches(b.dataset.cmd, picks, false); });
  }
  function pick(node) {
    sel.picks.push(node.pickNames);
    sel.chosen = null;
    var c = $("confirm");
    if (c) { c.hidden = true; }
    draw();
    var left = candidates();
    if (left.length > 1) { focusFirst(); }
  }

  // -- check, confirm, send ----------------------------------------------------------------
  function choose(cmd) {
    sel.chosen = cmd; sel.action = "submit";
    request("POST", base + "/check", { text: cmd }).then(function (r) {
      if (sel.chosen !== cmd) { return; }
      if (!r.ok) { flash("bad", r.error, r.hint); return; }
      confirmWith(r.words + ".", "Send");
    });
  }
  function confirmWith(text, label) {
    var c = $("confirm");
    $("confirm-text").textContent = text;
    $("send").textContent = label;
    c.hidden = false;
    $("send").focus();
  }
  function send() {
    var seq = parseInt(document.querySelector(".layout").dataset.seq, 10);
    var data = sel.action === "submit" ? { text: sel.chosen, seq: seq } : { what: sel.action, seq: seq };
    var path = base + "/" + (sel.action === "submit" ? "submit" : "undo");
    $("send").disabled = true;
    flash("", "sending…");
    request("POST", path, data).then(function (r) {
      if (r.ok) { flash("ok", (r.said || []).join("; ") || "written"); refresh(true); }
      else { flash("bad", r.error, r.hint); $("send").disabled = false; $("confirm").hidden = true; focusFirst(); }
    });
  }
  var typedTimer = null, typedSeq = 0;
  function checkTyped(thenConfirm) {
    var input = $("typed"), v = $("verdict"), text = input.value.trim(), mine = ++typedSeq;
    if (!text) { v.textContent = ""; v.className = "verdict"; return; }
    request("POST", base + "/check", { text: text }).then(function (r) {
      if (mine !== typedSeq) { return; }
      v.className = "verdict " + (r.ok ? "ok" : "bad");
      v.textContent = r.ok ? "\u2713 " + r.words : "\u2717 " + r.error + (r.hint ? " (" + r.hint + ")" : "");
      if (r.ok && thenConfirm) { sel.chosen = text; sel.action = "submit"; confirmWith(r.words + ".", "Send"); }
    });
  }

  // -- live ----------------------------------------------------------------------------------
  function refresh(keepFlash) {
    var focused = document.activeElement && document.activeElement.id;
    var url = body.dataset.page === "game" ? base + "/main" : base + "/list";
    return request("GET", url).then(function (r) {
      if (r.html === undefined) { if (!keepFlash) { flash("bad", r.error); } return; }
      var open = $("confirm") && !$("confirm").hidden;
      if (body.dataset.page === "game" && open && String(r.seq) === body.dataset.seq) { return; }  // nothing new: keep the question
      if (body.dataset.page === "game") { $("main").innerHTML = r.html; setUp(); }
      else { $("games").innerHTML = r.html; }
      if (focused && $(focused)) { $(focused).focus(); }
    });
  }
  function listen() {
    var live = $("live");
    var source = new EventSource(({ game: "../", log: "../../" }[body.dataset.page] || "") + "events");
    function redraw() {  // the log page whole (a reload), the others their changing part
      if (body.dataset.page === "log") { location.reload(); return new Promise(function () {}); }
      return refresh(true);
    }
    function on() { live.textContent = "live"; live.classList.add("on"); }
    source.addEventListener("hello", function (e) {
      if (body.dataset.version === e.data) { on(); return; }
      // a change between the page's drawing and this stream (or while it was cut) sent nothing
      // here: drawn again, then "live" (it means "up to date")
      body.dataset.version = e.data;
      redraw().then(on, on);
    });
    source.addEventListener("change", function (e) {
      if (e.lastEventId) { body.dataset.version = e.lastEventId; }
      // the list of games shows every game; a game's page and log only their own
      if (body.dataset.page === "games" || JSON.parse(e.data).indexOf(body.dataset.key) >= 0) { redraw(); }
    });
    source.onerror = function () { live.textContent = "reconnecting"; live.classList.remove("on"); };
  }

  function setUp() {
    sel = { words: [], picks: [], chosen: null, action: null };
    markPickables();
    draw();
    var typed = $("typed");
    if (typed) {
      typed.addEventListener("input", function () { clearTimeout(typedTimer); typedTimer = setTimeout(checkTyped, 250); });
      typed.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); checkTyped(true); } });
      $("typed-go").addEventListener("click", function () { checkTyped(true); });
    }
    body.dataset.seq = document.querySelector(".layout").dataset.seq;
  }

  // one listener for everything the board and the panels hold (they are redrawn)
  document.addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("button.move, .pickable, #send, #cancel, button.undo") : null;
    if (!t) { return; }
    if (t.id === "send") { send(); }
    else if (t.id === "cancel") { reset(); focusFirst(); }
    else if (t.classList.contains("move")) { choose(t.dataset.cmd); }
    else if (t.classList.contains("undo")) {
      sel.action = t.dataset.undo;
      confirmWith({ request: "Ask the other players to let you take back your last move?",
        accept: "Accept the undo: the move is taken back.", refuse: "Refuse the undo: the move stands." }[sel.action],
        { request: "Ask", accept: "Accept", refuse: "Refuse" }[sel.action]);
    } else { pick(t); }
  });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if ((e.key === "Enter" || e.key === " ") && t.classList && t.classList.contains("pickable")) {
      e.preventDefault(); pick(t);
    } else if (e.key === "Escape") { reset(); flash("", ""); }
  });

  if (body.dataset.page === "game") { setUp(); }
  listen();
  body.dataset.ready = "1";
}());
