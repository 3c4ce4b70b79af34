// The dtb endgame explorer: a board, a position editor, the moves of a
// position with their values, and its best line, all from dtb serve's
// JSON API (/api/probe, /api/line). The URL carries the position:
// /?fen=W:WK10:BK5&clock=0&rule2=0.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// state: the position shown, the answers of the API about it, the line.
const state = {
  side: "W",            // "W" or "B": the side to move
  pieces: {},           // square -> "wm", "wk", "bm" or "bk"
  selected: 0,          // the square of the piece picked to move, 0 for none
  answer: null,         // /api/probe's answer for the position
  line: null,           // /api/line's answer, and where in it the board is
  lineAt: 0,
  piece: "wm",          // what the editor places
};

// The square s (1..50) lies in row (s-1)/5; even rows start with a light
// square, so their dark squares are columns 1, 3, ..., odd rows' 0, 2, ...
function squareXY(s) {
  const r = Math.floor((s - 1) / 5), i = (s - 1) % 5;
  return [(2 * i + (r % 2 === 0 ? 1 : 0)) * 50, r * 50];
}

// parseFEN reads a PDN FEN such as "W:W31-50:B1-20" or "B:WK4,28:B12,K45.",
// or a Hub position (the side to move, then squares 1 to 50 as w, b, W,
// B or e), into {side, pieces}; it throws an Error in words.
function parseFEN(fen) {
  const hub = /^([WB])([wbWBe]{50})$/.exec(fen.trim());
  if (hub) {
    const pieces = {};
    [...hub[2]].forEach((c, i) => {
      if (c !== "e") pieces[i + 1] = c.toLowerCase() + (c === c.toUpperCase() ? "k" : "m");
    });
    return { side: hub[1], pieces };
  }
  const parts = fen.trim().replace(/\.$/, "").split(":");
  if (parts.length !== 3 || !/^[WB]$/.test(parts[0])) {
    throw new Error("a FEN is SIDE:WHITE:BLACK, e.g. W:WK10:BK5, or a Hub position of 51 characters");
  }
  const pieces = {};
  for (const list of parts.slice(1)) {
    const colour = list[0] === "W" ? "w" : list[0] === "B" ? "b" : null;
    if (!colour) throw new Error(`"${list}": a list of pieces starts with W or B`);
    for (const item of list.slice(1).split(",").filter((x) => x !== "")) {
      const m = /^(K?)(\d+)(?:-(\d+))?$/.exec(item.trim());
      if (!m) throw new Error(`"${item}": not a square, a king (K12) or a range (31-50)`);
      for (let s = +m[2]; s <= +(m[3] || m[2]); s++) {
        if (s < 1 || s > 50) throw new Error(`square ${s} is off the board`);
        pieces[s] = colour + (m[1] ? "k" : "m");
      }
    }
  }
  return { side: parts[0], pieces };
}

// fen returns the FEN of the position on the board.
function fen() {
  const list = (colour) => Object.keys(state.pieces).map(Number).sort((a, b) => a - b)
    .filter((s) => state.pieces[s][0] === colour)
    .map((s) => (state.pieces[s][1] === "k" ? "K" : "") + s).join(",");
  return `${state.side}:W${list("w")}:B${list("b")}`;
}

// clocks returns the query parameters of the clocks.
function clocks() {
  return `clock=${+$("clock").value || 0}&rule2=${+$("rule2").value || 0}`;
}

// api calls the API and returns its JSON answer, or throws its error.
async function api(call, query) {
  const resp = await fetch(`/api/${call}?${query}`);
  const body = await resp.json();
  if (!resp.ok) throw new Error(body.error || `status ${resp.status}`);
  return body;
}

function el(tag, attrs, text) {
  const e = document.createElementNS(tag === "svg" || attrs.svg ? SVG : "http://www.w3.org/1999/xhtml", tag);
  for (const [k, v] of Object.entries(attrs)) if (k !== "svg") e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// targets returns the moves of the answer that start on square from, by
// their landing square.
function targets(from) {
  const t = {};
  for (const m of (state.answer ? state.answer.moves : [])) {
    const squares = m.move.split(/[-x]/).map(Number);
    if (squares[0] === from) (t[squares[squares.length - 1]] ||= []).push(m);
  }
  return t;
}

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  const to = state.selected ? targets(state.selected) : {};
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      board.append(el("rect", { svg: 1, x: c * 50, y: r * 50, width: 50, height: 50, class: (r + c) % 2 ? "dark" : "light" }));
    }
  }
  for (let s = 1; s <= 50; s++) {
    const [x, y] = squareXY(s);
    const cls = s === state.selected ? "selected" : to[s] ? "target" : "dark";
    const sq = el("rect", { svg: 1, x, y, width: 50, height: 50, class: cls, "data-square": s });
    sq.addEventListener("click", () => clickSquare(s));
    board.append(sq);
    if ($("numbers").checked) board.append(el("text", { svg: 1, x: x + 3, y: y + 12, class: "num" }, String(s)));
    const p = state.pieces[s];
    if (p) {
      const disc = el("circle", { svg: 1, cx: x + 25, cy: y + 25, r: 19, class: p[0] === "w" ? "wpiece" : "bpiece", "data-piece": p });
      disc.addEventListener("click", () => clickSquare(s));
      board.append(disc);
      if (p[1] === "k") board.append(el("circle", { svg: 1, cx: x + 25, cy: y + 25, r: 10, class: "crown", "pointer-events": "none" }));
    }
  }
}

// clickSquare edits the square in edit mode; otherwise it picks a piece
// of the side to move, or plays the picked piece's move to the square
// (asking which, when captures differ only in their path).
function clickSquare(s) {
  if ($("edit").checked) {
    if (state.piece) state.pieces[s] = state.piece; else delete state.pieces[s];
    return update();
  }
  const moves = state.selected ? targets(state.selected)[s] : null;
  if (moves && moves.length === 1) return play(moves[0]);
  if (moves) return showError(`two captures land on ${s}: pick one in the list of moves (${moves.map((m) => m.move).join(", ")})`);
  const p = state.pieces[s];
  state.selected = p && p[0] === state.side.toLowerCase() && Object.keys(targets(s)).length ? s : 0;
  drawBoard();
}

// play plays a move of the list: the board takes the position after it
// and the clocks after it.
function play(m) {
  $("clock").value = m.class_played ?? 0;
  $("rule2").value = m.rule2_played ?? 0;
  load(m.fen);
}

function showError(msg) {
  $("error").hidden = !msg;
  $("error").textContent = msg || "";
}

// load shows the position of the FEN.
function load(f) {
  try {
    const p = parseFEN(f);
    state.side = p.side;
    state.pieces = p.pieces;
  } catch (e) {
    return showError(e.message);
  }
  update();
}

// plies and moves say a count with its unit: "1 ply", "9 plies".
const plies = (n) => (n === 1 ? "1 ply" : `${n} plies`);
const moves = (n) => (n === 1 ? "1 move" : `${n} moves`);

// clockWords names the clock a distance counts, after "on the".
const clockWords = { "class A": "class A clock", "class B": "class B clock", "rule 2": "rule-2 count" };

// distances says the distances of x (an answer or a move of /api/probe)
// in words, its values those of side ("White" or "Black"), who is to
// move: a win or loss in the winner's moves from the dtw, then the
// distance on its clock and the mtc, each in plies, as dtb probe says
// them: "White wins in 5 moves (dtw 9 plies), distance 9 plies on the
// class B clock".
function distances(x, side) {
  const parts = [];
  if (x.theory !== "draw" && x.dtw !== null && x.dtw !== undefined) {
    const winner = x.theory === "win" ? side : side === "White" ? "Black" : "White";
    const theory = x.rules !== x.theory ? " in theory" : "";
    const n = winner === side ? Math.floor((x.dtw + 1) / 2) : Math.floor(x.dtw / 2);
    parts.push(x.dtw === 0 ? `${winner} has won${theory} (dtw 0 plies)` : `${winner} wins${theory} in ${moves(n)} (dtw ${plies(x.dtw)})`);
  }
  if (x.distance !== null && x.distance !== undefined) {
    parts.push(`distance ${plies(x.distance)}` + (clockWords[x.clock] ? ` on the ${clockWords[x.clock]}` : ""));
  }
  if (x.mtc !== null && x.mtc !== undefined) parts.push(`mtc ${plies(x.mtc)}`);
  return parts.join(", ");
}

// update asks the API about the position on the board and shows the
// answers; the URL carries the position.
async function update() {
  state.selected = 0;
  state.answer = null;
  const f = fen();
  $("fen").value = f;
  $("side").textContent = state.side === "W" ? "White to move" : "Black to move";
  history.replaceState(null, "", `?fen=${encodeURIComponent(f)}&${clocks()}`);
  drawBoard();
  showError("");
  $("verdict").textContent = "";
  $("moves").replaceChildren();
  try {
    state.answer = await api("probe", `fen=${encodeURIComponent(f)}&${clocks()}`);
  } catch (e) {
    return showError(e.message);
  }
  const a = state.answer;
  const side = state.side === "W" ? "White" : "Black";
  const said = distances(a, side);
  $("verdict").replaceChildren(el("span", { class: a.category }, `${side} to move: ${a.category}`),
    document.createTextNode(` (theory ${a.theory}${said ? "; " + said : ""})`));
  for (const m of a.moves) {
    const ms = distances(m, side);
    const li = el("li", { class: m.category, "data-move": m.move }, `${m.move}  ${m.category}${ms ? "  " + ms : ""}`);
    li.addEventListener("click", () => play(m));
    $("moves").append(li);
  }
  drawBoard();
  if (!state.line || !state.line.moves.some((s, i) => i + 1 === state.lineAt && s.fen === f)) loadLine(f);
}

// loadLine asks for the best line from the position and shows it.
async function loadLine(f) {
  state.line = null;
  state.lineAt = 0;
  $("line").replaceChildren();
  let line;
  try {
    line = await api("line", `fen=${encodeURIComponent(f)}&${clocks()}`);
  } catch (e) {
    return;
  }
  state.line = line;
  line.moves.forEach((m, i) => {
    const span = el("span", { "data-ply": i + 1 }, m.move);
    span.addEventListener("click", () => stepTo(i + 1));
    $("line").append(document.createTextNode(m.number ? m.number + " " : ""), span, document.createTextNode(" "));
  });
  $("line").append(el("em", {}, `${line.why} ${line.result}`));
}

// stepTo shows the position after ply n of the line (0: its start).
function stepTo(n) {
  const line = state.line;
  if (!line || n < 0 || n > line.moves.length) return;
  state.lineAt = n;
  for (const span of $("line").querySelectorAll("span")) span.classList.toggle("at", +span.dataset.ply === n);
  const p = parseFEN(n === 0 ? line.fen : line.moves[n - 1].fen);
  state.side = p.side;
  state.pieces = p.pieces;
  update();
}

function init() {
  const q = new URLSearchParams(location.search);
  $("clock").value = q.get("clock") || 0;
  $("rule2").value = q.get("rule2") || 0;
  for (const b of $("palette").querySelectorAll("button")) {
    b.addEventListener("click", () => {
      state.piece = b.dataset.piece;
      for (const o of $("palette").querySelectorAll("button")) o.classList.toggle("on", o === b);
    });
  }
  $("side").addEventListener("click", () => { state.side = state.side === "W" ? "B" : "W"; update(); });
  $("numbers").addEventListener("change", drawBoard);
  $("clock").addEventListener("change", update);
  $("rule2").addEventListener("change", update);
  $("fenform").addEventListener("submit", (e) => { e.preventDefault(); load($("fen").value); });
  $("back").addEventListener("click", () => stepTo(state.lineAt - 1));
  $("forward").addEventListener("click", () => stepTo(state.lineAt + 1));
  load(q.get("fen") || "W:WK2,6:BK50");
}

init();
