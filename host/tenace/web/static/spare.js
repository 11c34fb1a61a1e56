// The spare terminal page: the terminal firmware (spare_board.py over tenace_terminal) on MicroPython's WebAssembly
// port, its frames over a WebSocket to `tenace serve`'s collector, its screen and keypad drawn here.
// The journal lives in the port's in-memory file system and is copied to localStorage after every step that did
// something, so that a reload (or a phone that dropped the tab) starts again from it, as a terminal after a power cut.

const TICK_MS = 20;
const STORE = "tenace-spare-terminal";  // localStorage: {id: the wire terminal id, files: {name: base64}}
const SPARE_IDS = [32768, 65534];  // a spare terminal's id is drawn from these, once per phone (flashed ones are low)
const LABELS = {C: "\u2663 C", D: "\u2666 D", H: "\u2665 H", S: "\u2660 S", PASS: "Pass", BACK: "Back",
                MENU: "Menu", UP: "\u25b2", DOWN: "\u25bc"};
const RED = new Set(["D", "H"]);
// The seat keys, all four marked alike (the letter underlined): South shares the spade key, N E W have their own.
const SEATS = {N: "North", E: "East", S: "South (and \u2660 spades)", W: "West"};
const KEYBOARD = {Enter: "OK", Backspace: "BACK", Escape: "MENU", ArrowUp: "UP", ArrowDown: "DOWN",
                  p: "PASS", P: "PASS", N: "NT", "+": "+", "-": "-", "=": "="};

const body = document.body;
const statusLine = document.getElementById("status");
const screen = document.getElementById("screen");
const keypad = document.getElementById("keypad");

function say(text, state) {
  statusLine.textContent = text;
  if (state) body.dataset.state = state;
}

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function randomHex(n) {
  return toHex(crypto.getRandomValues(new Uint8Array(n)));
}

function toBase64(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

function fromBase64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function loadSaved() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch (e) {
    return {};
  }
}

function save(saved) {
  try {
    localStorage.setItem(STORE, JSON.stringify(saved));
    return true;
  } catch (e) {  // private mode or full: the terminal goes on, but a reload would start it empty
    return false;
  }
}

function draw(state) {
  screen.dir = state.rtl ? "rtl" : "ltr";
  screen.replaceChildren(...state.lines.map((line, i) => {
    const row = document.createElement("span");
    row.textContent = line;
    if (state.inverse[i]) row.className = "inverse";
    return row;
  }));
}

function drawKeypad(rows, press) {
  for (const row of rows) {
    for (const key of row) {
      if (!key) {
        keypad.appendChild(document.createElement("span"));
        continue;
      }
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.key = key;
      button.textContent = LABELS[key] || key;
      if (SEATS[key]) {
        const letter = document.createElement("span");
        letter.className = "seat-letter";
        letter.textContent = key;
        button.replaceChildren(...(key === "S" ? ["\u2660 ", letter] : [letter]));
        button.title = SEATS[key];
        button.dataset.seat = key;
      }
      if (RED.has(key)) button.className = "red";
      button.addEventListener("click", () => press(key));
      keypad.appendChild(button);
    }
  }
  const keys = new Set(rows.flat());
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    let key = KEYBOARD[event.key];
    if (key === undefined && event.key.length === 1) key = event.key.toUpperCase();
    if (key !== undefined && keys.has(key)) {
      event.preventDefault();
      press(key);
    }
  });
}

async function start() {
  const t0 = performance.now();
  let mp;
  try {
    const { loadMicroPython } = await import("/spare/mp/micropython.mjs");
    mp = await loadMicroPython({ stdout: (line) => console.log(line), stderr: (line) => console.warn(line) });
  } catch (e) {
    say("MicroPython's WebAssembly port did not load here: " + e, "error");
    return;
  }
  const reply = await fetch("/spare/firmware.json", { cache: "no-store" });
  if (!reply.ok) {
    say("The firmware did not come from the laptop (" + reply.status + "): reload the page.", "error");
    return;
  }
  for (const [path, text] of Object.entries(await reply.json())) {
    const at = "/firmware/" + path;
    mp.FS.mkdirTree(at.slice(0, at.lastIndexOf("/")));
    mp.FS.writeFile(at, text);
  }
  const saved = loadSaved();
  if (!Number.isInteger(saved.id)) {
    saved.id = SPARE_IDS[0] + (crypto.getRandomValues(new Uint16Array(1))[0] % (SPARE_IDS[1] - SPARE_IDS[0] + 1));
    saved.files = {};
    save(saved);
  }
  mp.FS.mkdirTree("/journal");
  for (const [name, data] of Object.entries(saved.files || {})) mp.FS.writeFile("/journal/" + name, fromBase64(data));
  mp.runPython("import sys\nsys.path.insert(0, '/firmware')");
  let board;
  try {
    const spare = mp.pyimport("spare_board");
    board = spare.SpareBoard(saved.id, randomHex);
    drawKeypad(JSON.parse(spare.layout()), (key) => board.key(key));
  } catch (e) {
    say("The terminal did not start: " + e, "error");
    return;
  }
  body.dataset.terminal = String(saved.id);
  // The page's help names this terminal in the director's `tenace event seat` command.
  for (const el of document.querySelectorAll(".terminal-id")) el.textContent = String(saved.id);
  body.dataset.readyMs = String(Math.round(performance.now() - t0));

  function persist() {
    const files = {};
    for (const name of mp.FS.readdir("/journal")) {
      if (name !== "." && name !== "..") files[name] = toBase64(mp.FS.readFile("/journal/" + name));
    }
    saved.files = files;
    if (!save(saved)) say("This browser does not keep the journal (private mode?): do not reload the page.");
  }

  let socket = null;
  let linked = false;
  function connect() {
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/spare/link");
    socket.binaryType = "arraybuffer";
    socket.onopen = () => {
      linked = true;
      body.dataset.link = "open";
    };
    socket.onmessage = (event) => {
      if (event.data instanceof ArrayBuffer) board.heard(toHex(new Uint8Array(event.data)));
    };
    socket.onclose = (event) => {
      linked = false;
      body.dataset.link = "closed";
      say("No link to the laptop" + (event.reason ? " (" + event.reason + ")" : "") + ": trying again.");
      setTimeout(connect, 1000);
    };
  }
  connect();

  let shown = -1;
  let said = "";
  function tick() {
    let state;
    try {
      state = JSON.parse(board.tick());
    } catch (e) {
      say("The terminal stopped: " + e, "error");
      clearInterval(timer);
      return;
    }
    for (const frame of state.out) {
      if (linked && socket.readyState === WebSocket.OPEN) socket.send(fromHex(frame));
    }
    if (state.shown !== shown) {
      shown = state.shown;
      draw(state);
    }
    if (state.busy) persist();
    if (state.signed_in && body.dataset.signedInMs === undefined) {
      body.dataset.signedInMs = String(Math.round(performance.now() - t0));
    }
    body.dataset.screen = state.screen;
    if (state.asked && body.dataset.asked !== state.asked) {
      // The help on a table taken names the table keyed here: "A2" is `--table 2 --section A`.
      body.dataset.asked = state.asked;
      for (const el of document.querySelectorAll(".taken-table")) el.textContent = state.asked;
      for (const el of document.querySelectorAll(".taken-section")) el.textContent = state.asked.slice(0, 1);
      for (const el of document.querySelectorAll(".taken-number")) el.textContent = state.asked.slice(1);
    }
    body.dataset.pending = String(state.pending);
    body.dataset.faults = String(state.faults);
    const now = linked ? "Terminal T" + saved.id + (state.signed_in ? ", signed in" : "") : "";
    if (linked && now !== said) {
      said = now;
      say(now, "ready");
    } else if (!linked) {
      said = "";
    }
  }
  const timer = setInterval(tick, TICK_MS);
  tick();
}

start();
