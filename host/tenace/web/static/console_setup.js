// The console's set-up page, made easier: a chosen file read into its form, a member's name shown beside the number
// typed, the double-dummy analysis's progress followed. The page works without it (paste, post, reload).
"use strict";

const token = () => (document.querySelector('input[name="csrf"]') || {}).value || "";

async function ask(url) {
  const answer = await fetch(url, {headers: {"X-CSRF-Token": token()}, credentials: "same-origin"});
  if (!answer.ok) throw new Error(answer.status);
  return answer.json();
}

// A file chosen: its text into the textarea (a roster, a list of pairs), or its bytes as base64 (deals: DUP is binary).
for (const input of document.querySelectorAll("input[type=file][data-into]")) {
  input.addEventListener("change", () => {
    const file = input.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => { document.getElementById(input.dataset.into).value = reader.result; };
    reader.readAsText(file);
  });
}
for (const input of document.querySelectorAll("input[type=file][data-base64]")) {
  input.addEventListener("change", () => {
    const file = input.files[0];
    const target = document.getElementById(input.dataset.base64);
    const name = document.getElementById(input.dataset.base64 + "-name");
    if (!file) { target.value = ""; name.value = ""; return; }
    const reader = new FileReader();
    reader.onload = () => { target.value = String(reader.result).split(",", 2)[1] || ""; name.value = file.name; };
    reader.readAsDataURL(file);
  });
}

// The member lookup: as a player's field is typed, the roster's matches fill the datalist and the name shows beside.
const list = document.getElementById("members");
let pending = 0;
for (const input of document.querySelectorAll("input.member")) {
  input.addEventListener("input", () => {
    const asked = ++pending;
    const text = input.value.trim();
    const who = input.parentElement.querySelector("output.who");
    if (!text) { who.textContent = ""; return; }
    setTimeout(async () => {
      if (asked !== pending) return;  // typed on since: only the latest is looked up
      try {
        const found = (await ask("/director/roster?q=" + encodeURIComponent(text))).members;
        if (asked !== pending) return;
        list.replaceChildren(...found.map(m => Object.assign(document.createElement("option"),
                                                             {value: String(m.number), label: m.name})));
        const exact = found.find(m => String(m.number) === text || m.name.toLowerCase() === text.toLowerCase());
        who.textContent = exact ? exact.name : (found.length ? found.length + " in the roster match" :
                                                 "not in the roster");
      } catch (e) {
        who.textContent = "";
      }
    }, 150);
  });
}

// The double-dummy analysis: followed while it runs, then the page's counts are reloaded.
const analysis = document.getElementById("analysis");
if (analysis && analysis.dataset.running === "yes") {
  const bar = analysis.querySelector("progress");
  const text = analysis.querySelector(".progress-text");
  const timer = setInterval(async () => {
    try {
      const state = await ask("/director/setup/analysis");
      bar.max = state.total || 1;
      bar.value = state.done;
      if (state.error) {
        text.textContent = "stopped: " + state.error;
      } else if (state.running) {
        text.textContent = state.done + "/" + state.total + " boards";
      } else {
        text.textContent = "done, " + state.total + " boards analysed";
      }
      if (!state.running) {
        clearInterval(timer);
        analysis.dataset.running = "no";
      }
    } catch (e) {
      clearInterval(timer);
    }
  }, 500);
}
