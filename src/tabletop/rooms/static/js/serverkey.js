// The server's key, for a server that opens rooms for holders of its key only
// (`tabletop serve --key-file`): the lobby asks for it once and keeps it in this tab's
// sessionStorage, which ends with the tab and is not shared with other tabs or sites, so a
// borrowed or shared computer does not keep it (docs/rooms.md, "Who may open rooms").

import { call } from "./api.js";
import { h, labelled } from "./dom.js";

const KEY = "tabletop.server-key";

export async function serverKeyField(before) {
  // When the server asks for a key, a field for it placed before `before`; returns what the
  // lobby needs: the key to send, and `keep()` once the server took it.
  const health = await call("GET", "/health");
  if (health.create !== "key") return { value: () => undefined, keep: () => {} };
  const input = h("input", { type: "password", id: "server-key", autocomplete: "off", required: true });
  input.value = sessionStorage.getItem(KEY) || "";
  const field = labelled("Server key", input, "This server opens rooms for holders of its key. It is kept in this tab only, until you close it.");
  before.before(field);
  return {
    value: () => input.value.trim() || undefined,
    keep: () => sessionStorage.setItem(KEY, input.value.trim()),
  };
}
