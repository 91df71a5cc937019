// The page's logic: read or edit a position, ask the API, draw the board with its chances.
"use strict";
const $ = (id) => document.getElementById(id);
let state = { text: $("text").value, analysis: null, solved: null, game: null, replay: null, step: 0, mark: null,
              adviceFor: null, clock: null };
const OUTLINES = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

function shade(p) {  // green (0) through yellow to red (1), as the pictures do
  const red = Math.round(60 + 195 * Math.min(1, 2 * p)), green = Math.round(60 + 170 * Math.min(1, 2 * (1 - p)));
  return `rgb(${red},${green},80)`;
}

function leadingDigits(text, digits = 4) {  // "p/q" by its decimal's first digits, cut, and "..." where more follow
  if (!text.includes("/")) return text;    // as the replay report writes a long fraction (leading_digits)
  const [top, bottom] = text.split("/"), p = BigInt(top), q = BigInt(bottom), ten = (k) => 10n ** BigInt(k);
  if (p === 0n) return "0";
  let exponent = top.length - bottom.length;  // the power of ten of the first digit: this or one less
  if (exponent >= 0 ? p < q * ten(exponent) : p * ten(-exponent) < q) exponent -= 1;
  const shift = digits - 1 - exponent, num = shift >= 0 ? p * ten(shift) : p, den = shift >= 0 ? q : q * ten(-shift);
  const cut = num % den !== 0n, mark = cut ? "..." : "";
  let lead = (num / den).toString();
  if (!cut) lead = lead.replace(/0+$/, "") || "0";
  if (exponent < -4) return lead[0] + (lead.length > 1 ? "." + lead.slice(1) : "") + mark + "e" + exponent;
  const whole = exponent + 1;  // digits before the point
  if (whole <= 0) return "0." + "0".repeat(-whole) + lead + mark;
  const padded = lead.padEnd(whole, "0");
  return padded.slice(0, whole) + (padded.length > whole ? "." + padded.slice(whole) : "") + mark;
}
const fraction = (text) => (text.length > 24 ? leadingDigits(text) : text);  // in the panels; titles keep every digit

function parse(text) {  // null when the text is no drawable position (the server says what is wrong)
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  if (!lines.length) return null;
  const [w, h] = lines[0].split("x").map(Number);
  const rows = lines.slice(1, 1 + h);
  if (!(w > 0 && h > 0) || rows.length !== h || rows.some((row) => row.length !== w)) return null;
  return { width: w, height: h, header: lines[0], rows };
}

async function api(path, body, json = false) {
  const response = await fetch(path, { method: "POST", body: json ? JSON.stringify(body) : body,
                                       headers: { "Content-Type": json ? "application/json" : "text/plain" } });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error);
  return answer;
}

// What the page shows is one view: a game, a position (pasted, uploaded or edited) or a replay. Every request is
// asked under a ticket: the view it is for and its number among the requests of its kind (a solve, a game's move,
// the opening of a view). Its answer is drawn only while its ticket is current (the view still shown and no later
// request of its kind asked), so an answer still on its way for a view left behind (a move of "Let it play", the
// solve of the board before) is dropped, never drawn over the board now shown. Opening a view stops "Let it play".
let view = 0;
const asked = { solve: 0, game: 0, view: 0 };
function openView() { view += 1; stopPlaying(); }
function ticket(kind) {  // () => whether an answer to the request asked now may still be drawn
  const mine = view, number = ++asked[kind];
  return () => mine === view && number === asked[kind];
}

function say(message, error = false) { $("status").textContent = message; $("status").className = error ? "error" : ""; }

// The advice panel speaks of one position (a game's is its id and its board) or of a whole replay file:
// it is cleared as soon as the page shows something else, so it never names a cell of a board gone.
function shown() { return (state.game ? state.game.id : "") + "\n" + state.text; }
function advise(message, about = shown()) { $("advice").textContent = message; state.adviceFor = about; }
function unadvise() { $("advice").textContent = ""; state.adviceFor = null; }

async function solveText(text) {
  const current = ticket("solve");
  state.text = text;
  if (state.adviceFor !== null && state.adviceFor !== "replay" && state.adviceFor !== shown()) unadvise();
  say("solving…");  // so a reader (or a test) never takes the last answer for this one
  try {
    const answer = await api(`/api/solve?${solveQuery()}`, text);
    if (!current()) return;  // a later solve was asked, or another view opened: this answer is of a board gone
    state.analysis = answer; state.solved = text;
    const a = state.analysis, end = a.insight && a.insight.endgame;
    say(`${a.exact ? "exact" : "NOT EXACT (time limit)"}: ${a.model_count === null ? "?" : a.model_count.length > 30 ? a.model_count.slice(0, 12) + "… (" + a.model_count.length + " digits)" : a.model_count} layouts, ` +
        `${a.safe.length} safe, ${a.mines_certain.length} mines proved` + (end && !gameOver() ? `, best play wins ${wonText(end)}` : "") +
        (state.game ? `; game ${state.game.status}` : ""));
  } catch (error) {
    if (!current()) return;
    state.analysis = null; unadvise(); say(error.message, true);
  }
  draw();
}

function gameOver() { return state.game !== null && state.game.status !== "playing"; }

// What a solve asks besides the chances: the move of the agent chosen (under the game's rules, or the form's), and
// with the box ticked the insight.
function solveQuery() {
  const query = new URLSearchParams({ agent: $("agent").value, rules: state.game ? state.game.rules : $("rules").value });
  if ($("insight").checked) query.set("insight", "true");
  return query;
}

// What the insight says of each covered cell, by "r,c": dead, in a 50/50 (and with which cells), its winning chance.
// Nothing once a game is over: there is no move left to weigh.
function insightOf(a) {
  const by = {}, at = (r, c) => (by[r + "," + c] = by[r + "," + c] || {}), seen = a && a.insight;
  if (!seen || gameOver()) return by;
  const cells = (list) => list.map(([r, c]) => `(${r},${c})`).join(" ");
  for (const [r, c] of seen.dead || []) at(r, c).dead = true;
  for (const fifty of seen.fifty_fifties || []) {
    const both = fifty.halves[0].concat(fifty.halves[1]);
    for (const [r, c] of both) {
      const others = cells(both.filter(([r2, c2]) => r2 !== r || c2 !== c));
      at(r, c).fifty = fifty.kind;
      at(r, c).says = fifty.kind === "unavoidable" ? `unavoidable 50/50 with ${others}` : `pseudo-50/50 with ${others}, told by ${cells(fifty.tellers)}`;
    }
  }
  const end = seen.endgame;
  if (end) for (const e of end.cells) at(e.cell[0], e.cell[1]).win = e;
  if (end && end.exact) for (const [r, c] of end.best) at(r, c).top = true;  // bounds name no best move for sure
  return by;
}

// A chance of winning with best play (the API's endgame or one of its cells): exact, its fraction; else its bounds.
const ratio = (text) => { const [top, bottom = "1"] = text.split("/"); return Number(top) / Number(bottom); };
function percent(p) { return p === 0 ? "0" : p === 1 ? "100" : p < 0.01 ? "<1" : p > 0.99 ? ">99" : String(Math.round(100 * p)); }
function bounds(win) {  // the bounds in whole percent, widened outwards so that they still hold the chance
  return [Math.floor(100 * ratio(win.low)), Math.ceil(100 * ratio(win.high))];
}
function rangeText(win) { const [low, high] = bounds(win); return `${low}% to ${high}%`; }
const wonText = (win) => (win.exact ? fraction(win.fraction) : `${rangeText(win)} (bounds)`);
function winTitle(win) {
  return win.exact ? `; win with best play after opening it: ${win.fraction} = ${(100 * win.chance).toFixed(1)}%`
    : `; win with best play after opening it: between ${win.low} and ${win.high} (the search stopped short)`;
}

const MARKED_SIZE = 16;  // cells smaller than this (fit to width) show no winning chance: it would be unreadable
function cellSize(pos) {  // 26 px a cell, or with "fit to width" as many as the window leaves room for
  if (!$("fit").checked) return 26;
  const room = document.documentElement.clientWidth - $("board").getBoundingClientRect().left - 20;
  return Math.max(4, Math.min(26, Math.floor(room / (pos.width + 1)) - 1));
}

function paintChance(cell, p) {  // a covered cell's chance of a mine: its colour and its percent, S and M where proved
  cell.style.backgroundColor = shade(p);
  cell.textContent = p === 0 ? "S" : p === 1 ? "M" : p < 0.01 ? "<1" : p > 0.99 ? ">99" : Math.round(p * 100);
  if (p === 0 || p === 1) cell.classList.add("sure");
}
function paintWin(cell, win, top = false) {  // a covered cell's winning chance at its foot: percent, or a range
  const mark = Object.assign(document.createElement("span"), { className: "win" });
  if (win.exact) mark.textContent = percent(win.chance);
  else { const [low, high] = bounds(win); mark.textContent = `${low}–${high}`; mark.classList.add("range"); }
  if (top) mark.classList.add("top");
  cell.classList.add("valued");
  cell.appendChild(mark);
}
function paintOpen(cell, ch) {  // an opened cell and its clue (blank for 0), an opened mine, a withheld clue, or a flag
  if (ch === "F") { cell.classList.add("flag"); cell.textContent = "F"; return; }
  cell.classList.add("open");
  cell.textContent = ch === "0" ? "" : ch;
  if ("12345678".includes(ch)) cell.classList.add("c" + ch);
}

// The outline, while there is a move to make (none once the game is over, none on a won board): the move of the
// agent chosen; where no move could be judged (a count cut short), the cells of the least chance, dashed.
function outlines(a) {
  const marks = {};
  if (!a || gameOver()) return marks;
  if (a.advice) marks[a.advice.cell.join(",")] = "best";
  if (a.advice || a.exact) return marks;
  let least = 2;
  for (const row of a.probabilities) for (const p of row) if (p !== null && p > 0 && p < 1 && p < least) least = p;
  if (a.safe.length) least = 0;
  a.probabilities.forEach((row, r) => row.forEach((p, c) => { if (p === least) marks[r + "," + c] = "least"; }));
  return marks;
}
// One line under the board: the agent's move outlined, and why it beats the least chance where it is not of it.
function agentLine(a) {
  if (!a || gameOver() || !$("overlay").checked) return "";
  if (!a.advice) return a.advice_missing ? `no agent's move: ${a.advice_missing}` + (a.exact ? "" : "; dashed: the least chance") : "";
  const m = a.advice;
  return `${m.agent}: ${m.action} (${m.cell}), a mine ${fraction(m.mine_fraction)} = ${(100 * m.mine_probability).toFixed(1)}%` +
    (m.reason ? ` [${m.reason}]` : "") + (m.why ? `: ${m.why}` : "");
}

// One line under the board where the winning chances are not all exact: that they are bounds, or why there are none.
const STOPPED = { time: "the time limit", nodes: "the work limit", memory: "the memory allowance", layouts: "the memory allowance" };
function endgameLine(a) {
  if (!a || gameOver() || !$("overlay").checked || !("insight" in a)) return "";
  if (!a.insight) return `no dead cells, 50/50s or winning chances: ${a.insight_missing}`;
  const end = a.insight.endgame;
  if (!end) return `no winning chances: ${a.insight.missing.endgame}`;
  if (end.exact) return "";
  return `winning chances as bounds (a range at the foot of each cell): the search stopped at ${STOPPED[end.stopped_by] || end.stopped_by}; ` +
    `best play wins ${rangeText(end)}`;
}

function draw() {
  // the numbers are drawn only on the board they were counted for (a redraw while the next is counted has none)
  const pos = parse(state.text), board = $("board"), a = state.solved === state.text ? state.analysis : null;
  board.innerHTML = "";
  $("why").textContent = pos ? agentLine(a) : "";
  $("endgame").textContent = pos ? endgameLine(a) : "";
  if (!pos) return;  // a malformed position: no half-drawn board, the status says why
  const size = cellSize(pos), seen = insightOf(a), outline = outlines(a), marks = size >= MARKED_SIZE;
  board.style.setProperty("--cell", `${size}px`);
  board.style.gridTemplateColumns = `repeat(${pos.width + 1}, ${size}px)`;
  board.appendChild(Object.assign(document.createElement("div"), { className: "ruler" }));
  for (let c = 0; c < pos.width; c++) board.appendChild(Object.assign(document.createElement("div"), { className: "ruler", textContent: c }));
  const chainOf = {};
  if (a && $("chains").checked) a.components.forEach((comp, i) => comp.cells.forEach(([r, c]) => { chainOf[r + "," + c] = OUTLINES[i % OUTLINES.length]; }));
  for (let r = 0; r < pos.height; r++) {
    board.appendChild(Object.assign(document.createElement("div"), { className: "ruler", textContent: r }));
    for (let c = 0; c < pos.width; c++) {
      const ch = pos.rows[r][c], cell = document.createElement("div");
      cell.className = "cell"; cell.dataset.row = r; cell.dataset.col = c;
      if (".Hh".includes(ch)) {
        const p = a ? a.probabilities[r][c] : null;
        if (p !== null && $("overlay").checked) {
          paintChance(cell, p);
          cell.title = `(${r}, ${c}): ${a.fractions[r][c]} = ${p.toFixed(4)}`;
          if (outline[r + "," + c]) cell.classList.add(outline[r + "," + c]);
          const about = seen[r + "," + c];
          if (about && about.dead) { cell.classList.add("dead"); cell.title += "; dead: opening it can tell nothing"; }
          if (about && about.fifty) { cell.classList.add(about.fifty === "unavoidable" ? "fifty" : "pseudo"); cell.title += `; ${about.says}`; }
          if (about && about.win) cell.title += winTitle(about.win);
          if (about && about.win && marks && p !== 1) paintWin(cell, about.win, about.top);  // a proved mine wins nothing: no mark
        }
        if (chainOf[r + "," + c]) cell.style.boxShadow = `inset 0 0 0 2px ${chainOf[r + "," + c]}`;
        if (state.mark && state.mark[0] === r && state.mark[1] === c) cell.classList.add("clicked");
      } else {
        if (state.mark && state.mark[0] === r && state.mark[1] === c) cell.classList.add("clicked");
        paintOpen(cell, ch);
      }
      cell.addEventListener("click", () => clicked(r, c, false));
      cell.addEventListener("contextmenu", (e) => { e.preventDefault(); clicked(r, c, true); });
      board.appendChild(cell);
    }
  }
}

const CYCLE = [".", "F", "0", "1", "2", "3", "4", "5", "6", "7", "8"];
async function clicked(r, c, flag) {
  if ($("edit").checked || !state.game) {
    if (!$("edit").checked) return flag ? undefined : showOutcomes(r, c);
    const pos = parse(state.text);
    if (!pos) return;
    const row = pos.rows[r].split("");
    row[c] = CYCLE[(CYCLE.indexOf(row[c]) + 1) % CYCLE.length];
    pos.rows[r] = row.join("");
    $("text").value = [pos.header, ...pos.rows].join("\n");
    return solveText($("text").value);
  }
  const current = ticket("game");
  try {
    const game = await api(`/api/games/${state.game.id}/moves`, { row: r, col: c, kind: flag ? "flag" : "open" }, true);
    if (current()) showGame(game);
  } catch (error) { if (current()) say(error.message, true); }
}

async function showOutcomes(r, c) {  // outside a game: what opening a covered cell ends in, exactly
  const pos = parse(state.text);
  if (!pos || !state.analysis || !".Hh".includes(pos.rows[r][c])) return;
  const about = shown();
  try {
    const answer = await api(`/api/solve?outcomes=${r},${c}`, state.text), pct = (p) => (100 * p).toFixed(2) + "%";
    if (about !== shown()) return;  // the position changed while this was counted: the answer is of another
    if (!answer.outcomes) return advise(`(${r},${c}): ${answer.outcomes_missing}`);
    const o = answer.outcomes[0];
    const shows = o.clues.map((p, k) => [k, p]).filter(([, p]) => p > 0).map(([k, p]) => `${k}: ${pct(p)}`).join(", ");
    advise(`opening (${r},${c}): a mine ${pct(o.mine)}` + (shows ? `; safe, it shows ${shows}` : ""));
  } catch (error) { say(error.message, true); }
}

function leaveReplay() {
  if (state.adviceFor === "replay") unadvise();
  state.replay = null; state.mark = null; $("step").textContent = ""; Object.assign($("slider"), { max: 0, value: 0 });
  $("replaypanel").hidden = true; $("moves").innerHTML = "";
}
function showGame(game) {
  state.game = game; leaveReplay(); $("text").value = game.position; gameBar();
  return solveText(game.position);
}

// The game bar: mines left (the total less the flags placed, as the classic counter) and the seconds since the
// game was started, stopped once it is over; hidden outside a game.
function gameBar() {
  const game = state.game;
  $("gamebar").hidden = game === null;
  if (game === null) { state.clock = null; return; }
  if (!state.clock || state.clock.id !== game.id) state.clock = { id: game.id, start: Date.now(), stop: null };
  if (game.status !== "playing" && state.clock.stop === null) state.clock.stop = Date.now();
  if (game.status === "playing") state.clock.stop = null;  // an undo takes a lost game back into play
  const pos = parse(game.position);  // the server's own position: always drawable
  const total = Number(pos.header.split("x")[2]), flags = pos.rows.join("").split("F").length - 1;
  $("counter").textContent = `mines left: ${total - flags}`;
  tick();
}
function tick() {
  if (!state.clock) return;
  $("timer").textContent = `time: ${Math.floor(((state.clock.stop || Date.now()) - state.clock.start) / 1000)} s`;
}
setInterval(tick, 250);

$("solve").onclick = () => { openView(); state.game = null; gameBar(); leaveReplay(); solveText($("text").value); };
$("upload").onchange = async (e) => {  // a position (text, .mine), or a whole board to play (board JSON, MBF)
  const file = e.target.files[0], name = file.name.toLowerCase();
  openView();
  const current = ticket("view");
  try {
    if (name.endsWith(".json") || name.endsWith(".mbf")) {
      const board = name.endsWith(".json") ? await file.text()
        : { mbf: btoa(String.fromCharCode(...new Uint8Array(await file.arrayBuffer()))) };
      const game = await api("/api/games", { board, rules: $("rules").value }, true);
      return current() ? showGame(game) : undefined;
    }
    const text = await file.text();
    if (!current()) return;
    $("text").value = text; state.game = null; gameBar(); leaveReplay(); solveText($("text").value);
  } catch (error) { if (current()) say(error.message, true); }
};
$("overlay").onchange = draw; $("chains").onchange = draw; $("fit").onchange = draw;
$("insight").onchange = () => solveText(state.text);
$("agent").onchange = () => solveText(state.text);  // the outline is the chosen agent's move
$("rules").onchange = () => { if (!state.game) solveText(state.text); };  // a game keeps the rules it began with
window.addEventListener("resize", () => { if ($("fit").checked) draw(); });
$("new").onclick = async () => {
  openView();
  const current = ticket("view");
  try {
    const game = await api("/api/games", { size: $("size").value, rules: $("rules").value, no_guess: $("noguess").checked,
                                           seed: $("seed").value === "" ? null : Number($("seed").value) }, true);
    if (current()) showGame(game);
  } catch (error) { if (current()) say(error.message, true); }
};
$("ask").onclick = async () => {
  const about = shown();
  try {
    const answer = await api(`/api/move?agent=${encodeURIComponent($("agent").value)}&explain=true&rules=${$("rules").value}`, state.text);
    if (about !== shown()) return;  // the position changed while the agent thought: its move is of another
    advise(answer.moves.map((m) => `${m.agent}: ${m.action} (${m.cell}) mine chance ${fraction(m.mine_fraction)}` +
      (m.reason ? ` [${m.reason}]` : "") + (m.why ? `\n  why: ${m.why}` : "") + (m.candidates || []).map((v) => `\n  (${v.cell}) safe ${v.safety.toFixed(4)} safe twice ${v.secondary_safety.toFixed(4)} score ${v.score.toFixed(4)}`).join("")).join("\n") +
      `\nleast mine chance ${fraction(answer.least_mine_fraction)} at ${answer.cells_at_least} cell(s)`, about);
  } catch (error) { say(error.message, true); }
};
// "Let it play" plays the agent to the end of the game shown; the same button, or opening another view, stops it.
let playing = null;  // the run under way (each press starts its own), or null
function stopPlaying() { playing = null; $("play").textContent = "Let it play"; }
$("play").onclick = async () => {
  if (playing !== null) return stopPlaying();
  if (!state.game) return say("start a game first", true);
  const run = playing = {}, here = view;
  $("play").textContent = "Stop";
  try {
    while (playing === run && state.game.status === "playing") {
      const current = ticket("game");
      const game = await api(`/api/games/${state.game.id}/agent`, { agent: $("agent").value }, true);
      if (!current()) continue;  // another view opened (the run is stopped), or a click's answer came later: not drawn
      await showGame(game);
      if (current()) advise(`${game.played.agent}: ${game.played.action} (${game.played.cell}) chance ${fraction(game.played.mine_fraction)}` +
        (game.played.reason ? ` [${game.played.reason}]` : "") + (game.played.why ? `: ${game.played.why}` : ""));  // the move made
    }
  } catch (error) { if (here === view) say(error.message, true); }
  if (playing === run) stopPlaying();
};
$("undo").onclick = async () => {
  if (!state.game) return;
  const current = ticket("game");
  try {
    const game = await api(`/api/games/${state.game.id}/undo`, {}, true);
    if (current()) showGame(game);
  } catch (error) { if (current()) say(error.message, true); }
};
function stepCount() { return state.replay.steps.length + (state.replay.final ? 1 : 0); }
function showStep() {  // a bench game's move k, or a replay file's click k (its chance and class from the engine)
  const steps = state.replay.steps, k = state.step, s = steps[k];
  const text = k < steps.length ? s.position : state.replay.final;
  let words = k < steps.length ? `${s.action} (${s.cell})` : state.replay.status;
  if (s && s.chance !== undefined) words += ` mine chance ${fraction(s.chance)}, ${s.class}`;
  else if (s) words += s.certain ? "" : " guess";
  $("step").textContent = `${state.replay.label} ${k + (state.replay.final ? 0 : 1)} of ${steps.length}: ${words}`;
  Object.assign($("slider"), { max: stepCount() - 1, value: k });
  $("moves").querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === k));
  const current = $("moves").children[k];
  if (current) current.scrollIntoView({ block: "nearest" });
  state.mark = s ? s.cell : null;
  $("text").value = text; solveText(text);
}
// a step is a guess when the engine judged it one (a replay file's click), or the agent was not certain (a bench move)
const isGuess = (s) => (s.class !== undefined ? s.class !== "proved" : !s.certain);
function listMoves(steps, describe) {  // the move list beside a replay: each step, a click on one goes to it
  $("moves").innerHTML = "";
  steps.forEach((s, k) => {
    const li = Object.assign(document.createElement("li"), { textContent: describe(s, k) });
    if (isGuess(s)) li.classList.add("guess");
    li.addEventListener("click", () => goTo(k));
    $("moves").appendChild(li);
  });
  $("replaypanel").hidden = false;
}
function startReplay(replay, label, describe) {
  leaveReplay(); state.replay = Object.assign(replay, { label }); state.step = 0; state.game = null; gameBar();
  listMoves(replay.steps, describe); showStep();
}
function nextGuess(direction) {  // the next (1) or previous (-1) guess from the step shown
  if (!state.replay) return;
  for (let k = state.step + direction; k >= 0 && k < state.replay.steps.length; k += direction)
    if (isGuess(state.replay.steps[k])) return goTo(k);
}
function replaySummary(a) {  // what cspmines replay prints of the file: ms-toollib's numbers, the counts, the totals
  const s = a.statistics, c = a.counts, n = (v, d) => (v === null || v === undefined ? "-" : v.toFixed(d));
  const lines = [`${a.file}: ${a.format.toUpperCase()}` + (a.software ? `, by ${a.software}` : "") + (a.player ? `, player ${a.player}` : ""),
    `${a.width}x${a.height}, ${a.mines} mines, ${a.outcome}` + (a.time ? ` in ${a.time.toFixed(2)} s` : "")];
  if (s) lines.push(`3BV ${s.bbbv_solved}/${s.bbbv}, 3BV/s ${n(s.bbbv_s, 3)}, IOE ${n(s.ioe, 3)}, RQP ${n(s.rqp, 2)}, ` +
    `throughput ${n(s.thrp, 3)}, correctness ${n(s.corr, 3)}` + ([3, 4, 5].includes(s.level) ? `, STNB ${n(s.stnb, 2)}` : ""),
    `clicks ${s.cl} (left ${s.left}, right ${s.right}, double ${s.double}; ${s.ce} effective), flags ${s.flag}; ` +
    `openings ${s.op}, islands ${s.isl}, ZiNi ${s.zini} (human ${s.hzini})`);
  lines.push(`${c.judged} clicks opened cells: ${c.proved} proved, ${c.forced} forced, ${c.needless} needless ` +
    `(${c.nearby} nearby, ${c.elsewhere} elsewhere)`);
  if (a.fatal) lines.push(`lost at ${a.fatal.time.toFixed(2)} s on ${a.fatal.action} (${a.fatal.row},${a.fatal.col}), ` +
    `mine chance ${fraction(a.fatal.chance)}` + (a.fatal.bbbv_solved === null ? "" : `, with ${a.fatal.bbbv_solved} of ${s.bbbv} 3BV solved before it`));
  lines.push(`survival ${fraction(a.survival)}, luck ${a.luck_bits === null ? "infinite" : a.luck_bits.toFixed(3)} bits`);
  if (a.complete === false) lines.push(`NOT COMPLETE: the server's time ran out after ${c.judged} clicks; the figures are those of the clicks judged`);
  return lines.join("\n");
}
$("replay").onclick = async () => {
  openView();
  const current = ticket("view");
  try {
    const replay = await api("/api/replay", $("record").value.trim());
    if (current()) startReplay(replay, "move", (s) => `${s.action} (${s.cell})` + (s.certain ? "" : "  guess"));
  } catch (error) { if (current()) say(error.message, true); }
};
$("replayfile").onchange = async (e) => {  // a real game: every click with its exact chance
  const file = e.target.files[0];
  openView();
  const current = ticket("view");
  say("reading the replay…");
  try {
    const answer = await api(`/api/replays?steps=true&name=${encodeURIComponent(file.name)}`, await file.arrayBuffer());
    if (!current()) return;  // another view opened while the file was read
    startReplay({ steps: answer.steps, final: null, status: answer.outcome }, "click", (s, k) => {
      const c = answer.clicks[k];
      return `${c.time.toFixed(2).padStart(8)} ${c.thinking.toFixed(2).padStart(7)}  ${(c.action + " (" + c.row + "," + c.col + ")").padEnd(14)}` +
        ` ${(c.chance.includes(".") ? "~" + c.chance : fraction(c.chance)).padEnd(14)} ${c.class}` +  // ~: an estimate
        (c.needless ? ` (${c.needless})` : "");
    });
    advise(replaySummary(answer), "replay");
  } catch (error) { if (current()) say(error.message, true); }
};
function goTo(k) { if (state.replay && k >= 0 && k < stepCount() && k !== state.step) { state.step = k; showStep(); } }
$("next").onclick = () => { if (state.replay) goTo(state.step + 1); };
$("back").onclick = () => { if (state.replay) goTo(state.step - 1); };
$("slider").oninput = () => goTo(Number($("slider").value));
$("nextguess").onclick = () => nextGuess(1);
$("prevguess").onclick = () => nextGuess(-1);
document.addEventListener("keydown", (e) => {  // arrow keys step through a replay, unless typing
  if (!state.replay || ["TEXTAREA", "INPUT", "SELECT"].includes(document.activeElement.tagName) && document.activeElement.type !== "range") return;
  if (e.key === "ArrowRight") { goTo(state.step + 1); e.preventDefault(); }
  if (e.key === "ArrowLeft") { goTo(state.step - 1); e.preventDefault(); }
});
// The legend: a sample of every mark the board draws, painted as the board paints it.
const LEGEND = [
  [(c) => paintChance(c, 0), "proved safe"],
  [(c) => paintChance(c, 1), "proved mine"],
  [(c) => paintChance(c, 0.14), "a covered cell's chance of a mine in percent (<1 and >99 near the ends): green 0% through yellow to red 100%"],
  [(c) => { paintChance(c, 0.15); c.classList.add("best"); }, "outlined: the move of the agent chosen above; the line under the board says why, where it is not a cell of the least chance"],
  [(c) => { paintChance(c, 0.14); c.classList.add("least"); }, "dashed: the least chance, where no agent's move could be judged (a count cut short)"],
  [(c) => { paintChance(c, 0.2); c.classList.add("dead"); }, "greyed: a dead cell, opening it can tell nothing but that it was safe"],
  [(c) => { paintChance(c, 0.5); c.classList.add("fifty"); }, "framed, ½: half of an unavoidable 50/50, nothing but a guess in it can ever tell its halves apart"],
  [(c) => { paintChance(c, 0.5); c.classList.add("pseudo"); }, "dashed frame, ½: half of a pseudo-50/50, only guesses can tell its halves apart"],
  [(c) => { paintChance(c, 0.25); paintWin(c, { exact: true, chance: 0.62 }); }, "at the foot: the chance of winning the game with best play after opening the cell, in percent (where the server could list and search the layouts in time; none on a proved mine)"],
  [(c) => { paintChance(c, 0.2); paintWin(c, { exact: true, chance: 0.71 }, true); }, "green foot: a best move, the highest chance of winning"],
  [(c) => { paintChance(c, 0.25); paintWin(c, { exact: false, low: "2/5", high: "17/20" }); }, "a range at the foot: the search stopped short, the chance of winning lies between the two (the line under the board says so)"],
  [(c) => { paintChance(c, 0.3); c.style.boxShadow = `inset 0 0 0 2px ${OUTLINES[0]}`; }, "a coloured frame (with chains): the cells of one chain of influence"],
  [(c) => { paintChance(c, 0.1); c.classList.add("clicked"); }, "black frame: the click made at this step of a replay"],
  [(c) => paintOpen(c, "3"), "an opened cell and its clue (blank: 0)"],
  [(c) => paintOpen(c, "F"), "a flag"],
  [(c) => paintOpen(c, "*"), "an opened mine (minesearch and score games go on after one)"],
  [(c) => paintOpen(c, "?"), "an opened cell whose clue is withheld"],
];
for (const [paint, words] of LEGEND) {
  const cell = Object.assign(document.createElement("div"), { className: "cell" }), item = document.createElement("li");
  paint(cell);
  item.append(cell, Object.assign(document.createElement("span"), { textContent: words }));
  $("marks").appendChild(item);
}
solveText($("text").value);
