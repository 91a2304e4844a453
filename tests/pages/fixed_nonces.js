// A test page's random source, which only the room's request ids and nonces use: the
// seat's number, then a count kept across reloads and shared by every window of the seat (a
// popped-out sheet too: one count, so no two requests of a member share an id). With the
// test server's fixed seed (tests/rooms/conftest.py) every die a browser test sees is the
// same on every run.
(() => {
  const key = "tabletop-test-count";
  const seat = Number("__SEAT__");
  crypto.getRandomValues = (array) => {
    let count;
    try {
      count = Number(localStorage.getItem(key) || 0) + 1;
      localStorage.setItem(key, String(count));
    } catch {
      count = Date.now(); // a page with no storage (about:blank) makes no requests
    }
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    bytes.fill(0);
    bytes[0] = seat;
    for (let i = bytes.length - 1, n = count; i > 0 && n > 0; i -= 1, n = Math.floor(n / 256)) {
      bytes[i] = n % 256;
    }
    return array;
  };
})();
