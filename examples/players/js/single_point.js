#!/usr/bin/env node
// A small Minesweeper player for cspmines, in JavaScript: single-point deductions, then a seeded guess.
//
//   cspmines bench --agent exact --agent "cmd:node examples/players/js/single_point.js"
//
// It speaks cspmines' line protocol (docs/protocol.md) on its standard input and output: one JSON object a
// line each way. Each move it reads every opened clue: when the flags and known mines around it already
// account for its number, its other covered neighbours are safe; when its covered neighbours are exactly
// the mines still missing, they are all mines. It repeats that until nothing changes, opens the first safe
// cell found (in reading order), and otherwise opens a covered cell not known to be a mine, drawn from a
// random stream seeded by the game's seed (mulberry32). Under minesearch it opens the mines it has found,
// under score it flags them. The same seed gives the same moves.
"use strict";

const readline = require("readline");

const NAME = "single-point (javascript)";

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function neighbours(row, col, height, width) {
  const out = [];
  for (let r = Math.max(0, row - 1); r <= Math.min(height - 1, row + 1); r++) {
    for (let c = Math.max(0, col - 1); c <= Math.min(width - 1, col + 1); c++) {
      if (r !== row || c !== col) out.push([r, c]);
    }
  }
  return out;
}

// The covered cells proved safe and proved mines by single clues (and by the mine count), as "row,col" keys.
function deduce(rows, minesLeft) {
  const height = rows.length;
  const width = rows[0].length;
  const safe = new Set();
  const mines = new Set();
  let changed = true;
  while (changed) {
    changed = false;
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const clue = rows[row][col];
        if (clue < "0" || clue > "8") continue;
        let marked = 0;
        const unknown = [];
        for (const [r, c] of neighbours(row, col, height, width)) {
          const key = r + "," + c;
          const seen = rows[r][c];
          if (seen === "F" || seen === "*" || mines.has(key)) marked++;
          else if (seen === "." && !safe.has(key)) unknown.push(key);
        }
        if (unknown.length === 0) continue;
        if (marked === Number(clue)) {
          unknown.forEach((key) => safe.add(key));
          changed = true;
        } else if (marked + unknown.length === Number(clue)) {
          unknown.forEach((key) => mines.add(key));
          changed = true;
        }
      }
    }
  }
  if (minesLeft - mines.size === 0) {
    rows.forEach((line, r) => [...line].forEach((seen, c) => {
      if (seen === "." && !mines.has(r + "," + c)) safe.add(r + "," + c);
    }));
  }
  return { safe, mines };
}

function first(keys) {
  // the first cell in reading order
  return [...keys].map((key) => key.split(",").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
}

function choose(rows, minesLeft, rules, random) {
  const { safe, mines } = deduce(rows, minesLeft);
  if (rules === "minesearch" && mines.size) return { open: first(mines), certain: true };
  if (rules !== "minesearch" && safe.size) return { open: first(safe), certain: true };
  if (rules === "score" && mines.size) return { flag: first(mines), certain: true };
  const covered = [];
  rows.forEach((line, r) => [...line].forEach((seen, c) => { if (seen === ".") covered.push([r, c]); }));
  let choices = covered.filter(([r, c]) => !mines.has(r + "," + c) && !safe.has(r + "," + c));
  if (choices.length === 0) choices = covered;
  return { open: choices[Math.floor(random() * choices.length)], certain: false };
}

let rules = "classic";
let random = mulberry32(0);
const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if ("cspmines" in message) say({ name: NAME });
  else if ("game" in message) {
    rules = message.game.rules;
    random = mulberry32(message.game.seed);
  } else if ("position" in message) say(choose(message.position, message.mines_left, rules, random));
  else if ("quit" in message) process.exit(0);
});
