// The lobby: a GM opens a room for a system and lands on its page with the invites ready.

import { call } from "./api.js";
import { h } from "./dom.js";

async function boot() {
  const systemSelect = document.getElementById("system");
  const error = document.getElementById("error");
  const systems = await call("GET", "/systems");
  for (const system of systems) {
    const label = system.unavailable ? `${system.title} (not in this installation yet)` : system.title;
    systemSelect.append(h("option", { value: system.name, disabled: Boolean(system.unavailable), text: label }));
  }
  const first = systems.find((s) => !s.unavailable && s.name !== "dice");
  if (first) systemSelect.value = first.name;
  document.getElementById("new-room").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    error.textContent = "";
    try {
      const made = await call("POST", "/rooms", {
        body: {
          system: systemSelect.value,
          name: document.getElementById("name").value,
          gm: document.getElementById("gm").value || "GM",
        },
      });
      localStorage.setItem(`tabletop:invites:${made.room}`, JSON.stringify({ player: made.player, observer: made.observer }));
      location.assign(made.gm);
    } catch (problem) {
      error.textContent = problem.message;
    }
  });
}

window.addEventListener("DOMContentLoaded", () => {
  boot().catch((problem) => {
    document.getElementById("error").textContent = problem.message;
  });
});
