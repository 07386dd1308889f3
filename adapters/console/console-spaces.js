/*
 * Folio console: its spaces (GET/POST /api/spaces, PATCH /api/spaces/<id>). The page works in the space
 * its URL names (`?space=handbook`; console.js sends it with every request), so a link opens that space
 * and switching is following a link. Lists the console's own spaces with their document counts, creates
 * one under a name people choose (the id is made from it once and never changes) and renames the open
 * one. Runs after console.js and uses its helpers (element, plural, pageSpace). Names are text only.
 */

const spacesPanel = document.getElementById("spaces-panel");
const spaceName = document.getElementById("space-name");
const spaceCount = document.getElementById("space-count");
const spaceList = document.getElementById("spaces");
const spacesStatus = document.getElementById("spaces-status");
const renameSpaceForm = document.getElementById("rename-space-form");
const renameSpaceInput = document.getElementById("rename-space-name");
const newSpaceForm = document.getElementById("new-space-form");
const newSpaceInput = document.getElementById("new-space-name");
const SPACE_PREFIX = "console:";

/** The spaces last listed, and the one this page is in (null until listed, or when the URL names none that exists). */
let listedSpaces = [];
let openSpace = null;

function showSpacesStatus(text) {
  spacesStatus.textContent = text;
  spacesStatus.hidden = text === "";
}

/** The page URL of a space: the default one has none, the others their id without the prefix. */
function spaceHref(space) {
  if (space.isDefault) return window.location.pathname;
  const short = space.id.startsWith(SPACE_PREFIX) ? space.id.slice(SPACE_PREFIX.length) : space.id;
  return `${window.location.pathname}?space=${encodeURIComponent(short)}`;
}

function isOpenSpace(space, defaultSpaceId) {
  if (pageSpace === "") return space.id === defaultSpaceId;
  return space.id === pageSpace || space.id === `${SPACE_PREFIX}${pageSpace}`;
}

function renderSpace(space) {
  const current = space === openSpace;
  const link = element("a", {
    text: space.name,
    attributes: { href: spaceHref(space), "data-role": "space-link", "data-space-id": space.id },
  });
  if (current) link.setAttribute("aria-current", "page");
  return element("li", { attributes: { "data-role": "space" } }, [
    element("div", { className: "document-text" }, [
      link,
      element("div", {
        className: "document-meta",
        text: plural(space.documents, "document"),
        attributes: { "data-role": "space-documents" },
      }),
    ]),
  ]);
}

function showOpenSpace() {
  spaceName.textContent = openSpace ? openSpace.name : pageSpace;
  spaceCount.textContent = openSpace ? `· ${plural(openSpace.documents, "document")}` : "";
  document.title = openSpace && !openSpace.isDefault ? `${openSpace.name} — Folio console` : "Folio console";
  renameSpaceForm.hidden = openSpace === null;
  if (openSpace && document.activeElement !== renameSpaceInput) renameSpaceInput.value = openSpace.name;
}

async function loadSpaces() {
  try {
    const response = await fetch("/api/spaces");
    const data = await response.json();
    if (!response.ok) throw new Error(data.error?.message ?? response.statusText);
    listedSpaces = data.spaces;
    openSpace = listedSpaces.find((space) => isOpenSpace(space, data.defaultSpaceId)) ?? null;
    spaceList.replaceChildren(...listedSpaces.map(renderSpace));
    if (openSpace === null) {
      // A link to a space that is not there (renamed spaces keep their id, so it was never made, or deleted).
      showSpacesStatus(`There is no space “${pageSpace}” here — pick one below or create it.`);
      spacesPanel.open = true;
    }
    showOpenSpace();
  } catch (error) {
    showSpacesStatus(`Could not list the spaces: ${error.message}`);
  }
  document.body.setAttribute("data-spaces", "loaded");
}

/** POST or PATCH a space's name; the reply's space, or null after saying what went wrong. */
async function sendSpaceName(method, path, name) {
  try {
    const response = await fetch(path, {
      method,
      headers: { "Content-Type": "application/json", "X-Folio-Console": "1" },
      body: JSON.stringify({ name }),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      showSpacesStatus(data.error?.message ?? `The server answered ${response.status}.`);
      return null;
    }
    return data.space;
  } catch (error) {
    showSpacesStatus(`The server could not be reached: ${error.message}`);
    return null;
  }
}

newSpaceForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = newSpaceInput.value.trim();
  if (!name) return;
  const space = await sendSpaceName("POST", "/api/spaces", name);
  // The new space opens in this tab, empty; the one before stays a link away.
  if (space) window.location.assign(spaceHref(space));
});

renameSpaceForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = renameSpaceInput.value.trim();
  if (!name || !openSpace) return;
  const space = await sendSpaceName("PATCH", `/api/spaces/${encodeURIComponent(openSpace.id)}`, name);
  if (!space) return;
  showSpacesStatus(`Renamed to “${space.name}”. Links to this space keep working.`);
  renameSpaceInput.blur();
  await loadSpaces();
});

// The counts follow uploads and deletions in this space (console.js reloads its list after each).
const documentsPanel = document.getElementById("documents");
new MutationObserver(() => {
  if (openSpace) loadSpaces();
}).observe(documentsPanel, { childList: true });

loadSpaces();
