/*
 * Folio console: renders the thread, uploads files (picker or drag and drop) with per-file progress,
 * streams answers with page- and section-linked citations, lists and deletes documents, starts new
 * conversations, adds, lists and removes approved answers — all within the space the page's URL names
 * (`?space=handbook`; the default space without one), which console-spaces.js lists, creates and renames.
 * Vanilla JS, no dependencies, works offline. Document text is only ever rendered with textContent,
 * never as HTML. User-facing words: "passages" for what the server calls chunks, "sections" for the
 * headings a citation names.
 */

const thread = document.getElementById("thread");
const emptyNote = document.getElementById("empty");
const fileInput = document.getElementById("file-input");
const askForm = document.getElementById("ask-form");
const questionBox = document.getElementById("question");
const askButton = document.getElementById("ask");
const dropOverlay = document.getElementById("drop-overlay");
const documentList = document.getElementById("documents");
const documentCount = document.getElementById("document-count");
const documentsEmpty = document.getElementById("documents-empty");
const newConversationButton = document.getElementById("new-conversation");
/** Known after /api/documents answers; decides what the empty thread says. */
let documentTotal = null;
/** Set from /api/history; the server enforces it too, this only spares sending a file it would refuse. */
let maxUploadBytes = Number.POSITIVE_INFINITY;
/** The documents last listed (by /api/documents): the same-name prompt looks names up here. */
let listedDocuments = [];
/** False when the server has no embedding model (documents are found by keywords only). */
let meaningExpected = true;

/** The space this page acts on, as the URL names it ("handbook" or "console:handbook"); "" for the default. */
const pageSpace = new URLSearchParams(window.location.search).get("space")?.trim() ?? "";

/** A console API path within this page's space: every request names it, so two tabs can work in two spaces. */
function inSpace(path) {
  if (pageSpace === "") return path;
  return `${path}${path.includes("?") ? "&" : "?"}space=${encodeURIComponent(pageSpace)}`;
}

function element(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  for (const [name, value] of Object.entries(options.attributes ?? {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function scrollToEnd() {
  window.scrollTo({ top: document.body.scrollHeight });
}

function plural(count, noun) {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

function updateEmptyNote() {
  const threadEmpty = thread.childElementCount === 0;
  emptyNote.hidden = !threadEmpty;
  emptyNote.textContent =
    documentTotal === 0
      ? "No documents yet — drop a file here (PDF, DOCX, spreadsheet or text), then ask a question about it."
      : "Ask a question about your documents, or drop another file here.";
}

function addMessage(kind, who) {
  emptyNote.hidden = true;
  const body = element("div", { className: "body" });
  const message = element(
    "article",
    { className: `message ${kind}`, attributes: { "data-role": "message", "data-kind": kind } },
    [element("div", { className: "who", text: who }), body],
  );
  thread.append(message);
  scrollToEnd();
  return { message, body };
}

/** " — p. 3", " — pp. 3–4", or, for a Markdown, HTML, Word or text source, " — Leave › Annual leave". */
function describePlace(citation) {
  if (citation.pageStart == null) {
    const section = (citation.section ?? []).map((heading) => visibleText(heading).replace(/\s+/g, " ").trim());
    const path = section.filter((heading) => heading !== "").join(" › ");
    return path === "" ? "" : ` — ${path}`;
  }
  if (citation.pageEnd == null || citation.pageEnd === citation.pageStart) return ` — p. ${citation.pageStart}`;
  return ` — pp. ${citation.pageStart}–${citation.pageEnd}`;
}

function renderCitations(message, citations, noContext) {
  message.querySelector(".citations")?.remove();
  message.querySelector(".sources-label")?.remove();
  if (!citations || citations.length === 0) return;
  const label = element("div", { className: "who sources-label", text: noContext ? "Closest sources" : "Sources" });
  const list = element("ol", { className: "citations" });
  for (const citation of citations) {
    const link = element("a", {
      text: `[${citation.n}] ${labelDocument(citation.title, citation.file)}${describePlace(citation)}`,
      attributes: { "data-role": "citation", href: citation.url, target: "_blank", rel: "noopener noreferrer" },
    });
    const item = element("li", {}, [link]);
    // The answer already shows a quote it quotes: the same words twice help no one.
    if (citation.quote && !citation.quotedInAnswer) item.append(element("blockquote", { text: citation.quote }));
    list.append(item);
  }
  message.append(label, list);
}

/** The card's title already names the file; the result line says only what happened to it. */
function describeUpload(result) {
  if (result.status === "rejected") {
    const reason = result.error ? result.error.message : "it could not be read.";
    return `Couldn't add this file: ${reason}`;
  }
  const parts = [];
  if (result.pages != null) parts.push(plural(result.pages, "page"));
  parts.push(plural(result.chunks, "passage"));
  if (result.status === "unchanged") return `Already here, unchanged — ${parts.join(", ")}`;
  const what = result.replaced?.length ? "Replaced the earlier version" : "Added";
  const when =
    result.searchableBy === "keywords" && meaningExpected
      ? " · searchable by keywords now, by meaning once read (see Documents)"
      : "";
  return `${what} — ${parts.join(", ")}${when}`;
}

function showUploadResult(message, result) {
  message.querySelector("progress")?.remove();
  message.querySelector(".status-line")?.remove();
  const line = element("p", {
    text: describeUpload(result),
    attributes: { "data-role": "upload-result", "data-status": result.status },
  });
  if (result.error) line.setAttribute("data-code", result.error.code);
  message.append(line);
  message.setAttribute("data-status", "done");
}

/* ---------- history ---------- */

function renderEntry(entry) {
  if (entry.kind === "question") {
    addMessage("question", "You").body.textContent = entry.text;
  } else if (entry.kind === "answer") {
    const { message, body } = addMessage("answer", "Folio");
    if (entry.error) {
      body.append(element("span", { className: "error", text: entry.error.message }));
    } else {
      body.textContent = entry.text;
      renderCitations(message, entry.citations, entry.noContext);
    }
    message.setAttribute("data-status", "done");
  } else if (entry.kind === "upload") {
    const { message, body } = addMessage("upload", "Upload");
    body.textContent = entry.result.file;
    showUploadResult(message, entry.result);
  }
}

async function loadHistory() {
  try {
    const response = await fetch(inSpace("/api/history"));
    const data = await response.json();
    if (!response.ok) throw new Error(data.error?.message ?? response.statusText);
    if (typeof data.maxUploadBytes === "number") maxUploadBytes = data.maxUploadBytes;
    for (const entry of data.entries) renderEntry(entry);
    updateEmptyNote();
  } catch (error) {
    const { body } = addMessage("answer", "Folio");
    body.append(element("span", { className: "error", text: `Could not load the conversation: ${error.message}` }));
  }
  document.body.setAttribute("data-history", "loaded");
}

const addedAt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Direction controls shown ("invoice[U+202E]fdp.exe", not "invoiceexe.pdf") and zero-width characters
 * dropped, as src/domain/visible-text.ts does for the other adapters.
 */
function visibleText(text) {
  return (text ?? "")
    .replace(
      /[\u00AD\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200D\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu,
      "",
    )
    .replace(
      /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu,
      (character) => `[U+${character.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}]`,
    );
}

/** The title with the file name beside it, as src/domain/document-label.ts writes it for the other adapters. */
function labelDocument(rawTitle, rawFileName) {
  const title = visibleText(rawTitle);
  const fileName = visibleText(rawFileName);
  const flat = title.replace(/\s+/g, " ").trim();
  const lower = flat.toLowerCase();
  const file = (fileName ?? "").toLowerCase();
  if (flat === "" || lower === file || lower === file.replace(/\.[^.]+$/, "")) return fileName;
  return `${flat} (${fileName})`;
}

function describeDocument(document_) {
  const parts = [];
  // The file name always sits next to the title: two uploads of one name, or a generic title, stay apart.
  const fileName = visibleText(document_.fileName);
  if (fileName && labelDocument(document_.title, document_.fileName) !== fileName) parts.push(fileName);
  if (document_.pageCount != null) parts.push(plural(document_.pageCount, "page"));
  parts.push(plural(document_.sections, "passage"));
  parts.push(`added ${addedAt.format(new Date(document_.createdAt))}`);
  return parts.join(" · ");
}

/* ---------- searchable by keywords, then by meaning ---------- */

/** What the list says about how a document can be found; `progress` while its passages are embedded. */
function describeSearchability(meaning, progress) {
  if (meaning === "off") return "Searchable by keywords";
  if (meaning === "ready") return "Searchable";
  if (meaning === "failed")
    return "Searchable by keywords · reading for meaning failed; Folio tries again when it restarts";
  // "embedding 120/310 passages": what is measured, so a long filing visibly moves.
  if (progress && progress.total > 0) {
    return `Searchable by keywords · embedding ${progress.done}/${progress.total} passages for meaning…`;
  }
  return "Searchable by keywords · reading for meaning…";
}

function searchabilityLine(document_) {
  return element("div", {
    className: "document-meta document-search",
    text: describeSearchability(document_.meaning, document_.meaningProgress),
    attributes: { "data-role": "document-search", "data-meaning": document_.meaning ?? "off" },
  });
}

/** A meaning_progress event updates its row in place; the other events reload the list. */
function showMeaningProgress(event) {
  const row = documentList.querySelector(`[data-document-id="${CSS.escape(event.documentId)}"]`);
  const line = row?.querySelector('[data-role="document-search"][data-meaning="pending"]');
  if (!line) return;
  line.textContent = describeSearchability("pending", event);
}

/** DELETE `path` after the person confirms `question`; a refusal or an unreachable server is said in an alert. */
async function deleteAfterConfirming(question, path, button) {
  if (!window.confirm(question)) return false;
  button.disabled = true;
  try {
    const response = await fetch(inSpace(path), { method: "DELETE", headers: { "X-Folio-Console": "1" } });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      window.alert(data.error?.message ?? `The server answered ${response.status}.`);
    }
  } catch (error) {
    window.alert(`The server could not be reached: ${error.message}`);
  }
  return true;
}

async function deleteDocument(document_, button) {
  const question = `Delete “${visibleText(document_.title)}” (${visibleText(document_.fileName)})? Answers will no longer use it.`;
  if (await deleteAfterConfirming(question, `/api/documents/${encodeURIComponent(document_.id)}`, button))
    await loadDocuments();
}

function renderDocument(document_) {
  const remove = element("button", {
    className: "secondary danger",
    text: "Delete",
    attributes: {
      type: "button",
      "data-role": "delete-document",
      "aria-label": `Delete ${visibleText(document_.title)}`,
    },
  });
  remove.addEventListener("click", () => deleteDocument(document_, remove));
  return element("li", { attributes: { "data-role": "document", "data-document-id": document_.id } }, [
    element("div", { className: "document-text" }, [
      element("a", {
        text: visibleText(document_.title),
        attributes: { href: document_.url, target: "_blank", rel: "noopener noreferrer", "data-role": "document-link" },
      }),
      element("div", {
        className: "document-meta",
        text: describeDocument(document_),
        attributes: { "data-role": "document-meta" },
      }),
      searchabilityLine(document_),
    ]),
    remove,
  ]);
}

async function loadDocuments() {
  try {
    const response = await fetch(inSpace("/api/documents"));
    if (!response.ok) return;
    const data = await response.json();
    listedDocuments = data.documents;
    meaningExpected = !data.documents.some((document_) => document_.meaning === "off");
    documentTotal = data.documents.length;
    documentList.replaceChildren(...data.documents.map(renderDocument));
    documentCount.textContent = `(${documentTotal})`;
    documentsEmpty.hidden = documentTotal > 0;
    updateEmptyNote();
  } catch {
    // The list is a convenience; the thread still works without it.
  }
  document.body.setAttribute("data-documents", "loaded");
  // How many times the list was drawn: a page (or a test) can tell the reload after connecting has happened.
  document.body.dataset.documentLoads = String(Number(document.body.dataset.documentLoads ?? "0") + 1);
}

// Approved answers (answer library): GET/POST /api/answers, DELETE /api/answers/<id>.
const answersInput = document.getElementById("answers-input");
const answerList = document.getElementById("answers");
const answerCount = document.getElementById("answer-count");
const answersStatus = document.getElementById("answers-status");

function showAnswersStatus(text) {
  answersStatus.textContent = text;
  answersStatus.hidden = text === "";
}

function describeApprovedAnswer(record) {
  const place = [record.file, record.sheet, record.row == null ? null : `row ${record.row}`].filter(Boolean).join(", ");
  return `${place} · added by ${record.addedBy ?? "unknown"} ${addedAt.format(new Date(record.addedAt))}`;
}

async function removeApprovedAnswer(record, button) {
  const question = `Remove the approved answer to “${record.question}”?`;
  if (await deleteAfterConfirming(question, `/api/answers/${encodeURIComponent(record.id)}`, button))
    await loadApprovedAnswers();
}

function renderApprovedAnswer(record) {
  const remove = element("button", {
    className: "secondary danger",
    text: "Remove",
    attributes: {
      type: "button",
      "data-role": "remove-answer",
      "aria-label": `Remove the answer to ${record.question}`,
    },
  });
  remove.addEventListener("click", () => removeApprovedAnswer(record, remove));
  return element("li", { attributes: { "data-role": "approved-answer", "data-answer-id": record.id } }, [
    element("div", { className: "document-text" }, [
      element("div", { text: record.question, attributes: { "data-role": "answer-question" } }),
      element("div", { className: "document-meta", text: record.answer, attributes: { "data-role": "answer-text" } }),
      element("div", { className: "document-meta", text: describeApprovedAnswer(record) }),
    ]),
    remove,
  ]);
}

async function loadApprovedAnswers() {
  try {
    const response = await fetch(inSpace("/api/answers"));
    if (!response.ok) return;
    const data = await response.json();
    answerList.replaceChildren(...data.approvedAnswers.map(renderApprovedAnswer));
    answerCount.textContent = `(${data.approvedAnswers.length})`;
  } catch {
    // A convenience like the document list: questions still work without it.
  }
}

answersInput.addEventListener("change", async () => {
  const [file] = answersInput.files;
  answersInput.value = "";
  if (!file) return;
  showAnswersStatus(`Reading ${file.name}…`);
  const form = new FormData();
  form.append("file", file, file.name);
  try {
    const response = await fetch(inSpace("/api/answers"), {
      method: "POST",
      body: form,
      headers: { "X-Folio-Console": "1" },
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      showAnswersStatus(data.error?.message ?? `The server answered ${response.status}.`);
      return;
    }
    const replaced = data.replaced > 0 ? `, replacing ${data.replaced} from its earlier copy` : "";
    showAnswersStatus(
      `${plural(data.added, "approved answer")} added from ${data.file} (questions from “${data.questionColumn}”, answers from “${data.answerColumn}”${replaced}).`,
    );
  } catch (error) {
    showAnswersStatus(`The server could not be reached: ${error.message}`);
  }
  await loadApprovedAnswers();
});

/* ---------- every open tab sees documents appear and disappear ---------- */

/** Several events in a row (a replace: added, then removed) cost one reload. */
let reloadTimer = null;
function reloadDocumentsSoon() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(loadDocuments, 150);
}

/**
 * One stream per tab (GET /api/documents/events). The browser reconnects by itself after a dropped
 * connection; a refused one (the server restarting) is retried here. Each (re)connection reloads the
 * list, so nothing that happened while disconnected is missed.
 */
function followDocumentChanges() {
  const source = new EventSource(inSpace("/api/documents/events"));
  source.addEventListener("ready", () => {
    document.body.setAttribute("data-live-documents", "connected");
    reloadDocumentsSoon();
  });
  for (const type of ["added", "removed", "meaning_ready", "meaning_failed"]) {
    source.addEventListener(type, reloadDocumentsSoon);
  }
  source.addEventListener("meaning_progress", (message) => showMeaningProgress(JSON.parse(message.data)));
  source.addEventListener("error", () => {
    document.body.setAttribute("data-live-documents", "reconnecting");
    if (source.readyState === EventSource.CLOSED) setTimeout(followDocumentChanges, 5_000);
  });
}

newConversationButton.addEventListener("click", async () => {
  newConversationButton.disabled = true;
  try {
    const response = await fetch(inSpace("/api/conversation"), { method: "POST", headers: { "X-Folio-Console": "1" } });
    if (response.ok) {
      thread.replaceChildren();
      updateEmptyNote();
      questionBox.focus();
    }
  } finally {
    newConversationButton.disabled = false;
  }
});

/* ---------- uploads ---------- */

const STAGE_NAMES = {
  queued: "Busy with other files — waiting in line…",
  received: "Received",
  parsing: "Reading the file…",
  chunking: "Splitting into passages…",
  embedding: "Reading for meaning…",
  indexing: "Indexing the words…",
  done: "Finishing…",
};

function describeProgress(event) {
  const words = STAGE_NAMES[event.stage] ?? event.stage;
  const share = event.total > 0 ? ` ${Math.floor((100 * event.done) / event.total)}%` : "";
  return `${words}${share}`;
}

/**
 * The bar shows what is measured: the bytes sent while sending, passages embedded while embedding;
 * stages without a measure (reading the file, indexing) show a moving bar rather than a full one.
 */
function showProgress(progress, event) {
  if (event.stage === "embedding" && event.total > 0) {
    progress.value = Math.floor((100 * event.done) / event.total);
  } else {
    progress.removeAttribute("value");
  }
}

/* ---------- a file whose name is already here ---------- */

/**
 * Asks, inside the upload's card, what to do with a file whose name is already listed: replace it
 * (a new version: earlier answers' links then say so and open the new one), keep both, or cancel.
 * Resolves "replace", "keep-both" or null (cancelled).
 */
function askAboutSameName(message, existing) {
  return new Promise((resolve) => {
    const added = addedAt.format(new Date(existing.createdAt));
    const question = element("p", {
      className: "same-name-question",
      text: `A file named ${existing.fileName} is already here (“${existing.title}”, added ${added}). Replace it with this new version?`,
    });
    const choices = [
      ["replace", "Replace", "primary"],
      ["keep-both", "Keep both", "secondary"],
      [null, "Cancel", "secondary"],
    ].map(([choice, label, className]) => {
      const button = element("button", {
        className,
        text: label,
        attributes: { type: "button", "data-role": "same-name-choice", "data-choice": choice ?? "cancel" },
      });
      button.addEventListener("click", () => {
        prompt.remove();
        resolve(choice);
      });
      return button;
    });
    const prompt = element("div", { className: "same-name", attributes: { "data-role": "same-name-prompt" } }, [
      question,
      element("div", { className: "same-name-choices" }, choices),
    ]);
    message.append(prompt);
    choices[0].focus();
    scrollToEnd();
  });
}

/** The listed document of this name, from a fresh list (another tab may have added one meanwhile). */
async function findSameName(fileName) {
  await loadDocuments();
  return listedDocuments.find((document_) => document_.fileName === fileName) ?? null;
}

async function uploadFile(file) {
  const { message, body } = addMessage("upload", "Upload");
  body.textContent = file.name;
  let sameName = "replace";
  const existing = await findSameName(file.name);
  if (existing) {
    const choice = await askAboutSameName(message, existing);
    if (choice === null) {
      message.append(
        element("p", { text: "Cancelled — nothing was uploaded.", attributes: { "data-role": "upload-cancelled" } }),
      );
      message.setAttribute("data-status", "done");
      return;
    }
    sameName = choice;
  }
  const progress = element("progress", { attributes: { max: "100", value: "0" } });
  const status = element("div", { className: "status-line", text: "Sending 0%" });
  message.append(progress, status);

  if (file.size > maxUploadBytes) {
    const megabytes = Math.round((maxUploadBytes / (1024 * 1024)) * 10) / 10;
    showUploadResult(message, {
      file: file.name,
      status: "rejected",
      pages: null,
      chunks: 0,
      error: { code: "file_too_large", message: `The file is larger than the ${megabytes} MB upload limit.` },
    });
    return;
  }

  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    let consumed = 0;
    let finished = false;
    const readLines = () => {
      const text = request.responseText;
      let newline = text.indexOf("\n", consumed);
      while (newline !== -1) {
        const line = text.slice(consumed, newline).trim();
        consumed = newline + 1;
        newline = text.indexOf("\n", consumed);
        if (!line) continue;
        const event = JSON.parse(line);
        if (event.type === "progress") {
          status.textContent = describeProgress(event);
          showProgress(progress, event);
        }
        if (event.type === "result") {
          finished = true;
          showUploadResult(message, event.result);
        }
      }
    };
    request.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable) return;
      const share = Math.round((event.loaded / event.total) * 100);
      progress.value = share;
      // Everything sent: the server reads it now (its first progress line says so).
      status.textContent = share < 100 ? `Sending ${share}%` : "Sent — waiting for the server…";
    });
    request.addEventListener("progress", () => {
      if (request.status === 200) readLines();
    });
    request.addEventListener("load", () => {
      if (request.status === 200) {
        readLines();
      } else {
        let failure = { code: "upload_failed", message: `The server answered ${request.status}.` };
        try {
          failure = JSON.parse(request.responseText).error ?? failure;
        } catch {
          // Not JSON (a proxy's error page); keep the generic message.
        }
        finished = true;
        showUploadResult(message, { file: file.name, status: "rejected", pages: null, chunks: 0, error: failure });
      }
      if (!finished) {
        showUploadResult(message, {
          file: file.name,
          status: "rejected",
          pages: null,
          chunks: 0,
          error: { code: "upload_incomplete", message: "The upload ended without a result; try again." },
        });
      }
      resolve();
    });
    request.addEventListener("error", () => {
      showUploadResult(message, {
        file: file.name,
        status: "rejected",
        pages: null,
        chunks: 0,
        error: { code: "network_error", message: "The server could not be reached." },
      });
      resolve();
    });
    const form = new FormData();
    form.append("file", file, file.name);
    request.open("POST", inSpace(`/api/upload?sameName=${encodeURIComponent(sameName)}`));
    request.setRequestHeader("X-Folio-Console", "1");
    request.send(form);
  });
}

let uploadQueue = Promise.resolve();
function uploadFiles(files) {
  for (const file of files) {
    // One file at a time: the server parses each in a worker, and order in the thread stays readable.
    uploadQueue = uploadQueue.then(() => uploadFile(file)).then(loadDocuments);
  }
}

fileInput.addEventListener("change", () => {
  uploadFiles([...fileInput.files]);
  fileInput.value = "";
});

let dragDepth = 0;
window.addEventListener("dragenter", (event) => {
  if (!event.dataTransfer?.types.includes("Files")) return;
  dragDepth += 1;
  dropOverlay.hidden = false;
});
window.addEventListener("dragleave", () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) dropOverlay.hidden = true;
});
window.addEventListener("dragover", (event) => event.preventDefault());
window.addEventListener("drop", (event) => {
  event.preventDefault();
  dragDepth = 0;
  dropOverlay.hidden = true;
  if (event.dataTransfer?.files.length) uploadFiles([...event.dataTransfer.files]);
});

/* ---------- questionnaires ---------- */

const questionnaireInput = document.getElementById("questionnaire-input");

/** "61/245 done · 58 answered · 12 not found · 2 min left", as the server's progress says it. */
function describeQuestionnaire(progress) {
  if (progress.status === "queued") {
    // Waiting for a slot (FOLIO_QUESTIONNAIRE_MAX_RUNNING): how many wait before it.
    const place =
      progress.ahead === null || progress.ahead === undefined
        ? "Queued"
        : progress.ahead === 0
          ? "Queued, next in line"
          : `Queued, ${progress.ahead} ahead`;
    return `${place} · ${progress.done}/${progress.total} done`;
  }
  const parts = [`${progress.done}/${progress.total} done`, `${progress.answered} answered`];
  if (progress.notFound > 0) parts.push(`${progress.notFound} not found`);
  if (progress.needsReview > 0) parts.push(`${progress.needsReview} need review`);
  if (progress.errors > 0) parts.push(`${progress.errors} error${progress.errors === 1 ? "" : "s"}`);
  if (progress.skipped > 0) parts.push(`${plural(progress.skipped, "row")} skipped (not questions)`);
  if (progress.status === "running") {
    if (progress.secondsLeft !== null) {
      parts.push(
        progress.secondsLeft < 60
          ? `${Math.max(1, progress.secondsLeft)} s left`
          : `${Math.round(progress.secondsLeft / 60)} min left`,
      );
    }
  } else if (progress.status === "succeeded") {
    parts.push(`took ${Math.max(1, Math.round(progress.elapsedMs / 1000))} s`);
  } else if (progress.status === "cancelled") {
    parts.unshift("Cancelled");
  } else if (progress.status === "failed") {
    return `Failed: ${progress.errorMessage ?? progress.errorCode}`;
  }
  return parts.join(" · ");
}

/** "sheet "Review": header row 3, question column B ("Question"), 12 questions". */
function describePreviewSheet(sheet) {
  const header =
    sheet.headerRow === null
      ? "no header row"
      : sheet.headerRows.length > 1
        ? `header rows ${sheet.headerRows.join("–")}`
        : `header row ${sheet.headerRow}`;
  const name = sheet.questionHeader ? ` ("${sheet.questionHeader}")` : "";
  return `Sheet "${sheet.sheet}": ${header}, question column ${sheet.questionColumn}${name}, ${plural(sheet.questions, "question")}`;
}

/** Why rows were not asked, singular and plural (as the server's questionnaire-preview.ts says it). */
const SKIP_REASONS = {
  section: ["section name", "section names"],
  identifier: ["ID alone", "IDs alone"],
  single_word: ["single word", "single words"],
  empty: ["empty question cell", "empty question cells"],
  header: ["repeated header", "repeated headers"],
  instructions: ["instruction", "instructions"],
};

/** POSTs the file to a questionnaire route with the chosen sheet and column; the reply's JSON and status. */
async function sendQuestionnaire(route, file, choice) {
  const query = new URLSearchParams({ file: file.name });
  if (choice.sheet) query.set("sheet", choice.sheet);
  if (choice.column) query.set("column", choice.column);
  const response = await fetch(inSpace(`/api/questionnaires${route}?${query}`), {
    method: "POST",
    headers: { "X-Folio-Console": "1", "Content-Type": "application/octet-stream" },
    body: file,
  });
  return { response, answer: await response.json().catch(() => ({})) };
}

/**
 * What was found, shown before anything is answered: each sheet's header row and question column, its
 * first three questions, the rows not asked; a sheet and a column to pick instead; then Answer or Cancel.
 * Resolves with the sheet and column to answer with, or null when cancelled or refused.
 */
async function confirmQuestionnaire(file, message, status) {
  const panel = element("div", {
    className: "questionnaire-preview",
    attributes: { "data-role": "questionnaire-preview" },
  });
  message.append(panel);
  const choice = { sheet: "", column: "" };
  for (;;) {
    status.textContent = "Reading the questions…";
    const { response, answer } = await sendQuestionnaire("/preview", file, choice);
    if (!response.ok) {
      panel.remove();
      status.textContent = answer.error?.message ?? `The server answered ${response.status}.`;
      message.setAttribute("data-status", "rejected");
      return null;
    }
    const preview = answer.preview;
    status.textContent = `Found ${plural(preview.questions, "question")}${preview.skipped > 0 ? ` · ${plural(preview.skipped, "row")} skipped (not questions)` : ""} — check them before answering.`;
    panel.replaceChildren();
    for (const sheet of preview.sheets) {
      panel.append(
        element("p", {
          className: "preview-sheet",
          text: describePreviewSheet(sheet),
          attributes: { "data-role": "questionnaire-found" },
        }),
      );
      panel.append(
        element(
          "ol",
          {},
          sheet.firstQuestions.map((question) => element("li", { text: question })),
        ),
      );
      const counts = Object.entries(sheet.skipped)
        .filter(([, count]) => count > 0)
        .map(([reason, count]) => `${count} ${(SKIP_REASONS[reason] ?? [reason, reason])[count === 1 ? 0 : 1]}`);
      if (counts.length > 0)
        panel.append(element("p", { className: "preview-skipped", text: `Not asked: ${counts.join(", ")}` }));
    }
    // Another sheet or question column: the preview is read again with it, and the job uses it.
    const first = preview.sheets[0];
    const sheetSelect = element(
      "select",
      { attributes: { "data-role": "questionnaire-sheet", "aria-label": "Sheet" } },
      [
        element("option", { text: "Every sheet with questions", attributes: { value: "" } }),
        ...preview.allSheets.map((name) => element("option", { text: name, attributes: { value: name } })),
      ],
    );
    sheetSelect.value = choice.sheet;
    const columnSelect = element(
      "select",
      { attributes: { "data-role": "questionnaire-column", "aria-label": "Question column" } },
      (first?.columns ?? []).map((column) =>
        element("option", {
          text: `${column.letter}${column.header ? ` — ${column.header}` : ""}${column.sample ? ` (${column.sample})` : ""}`,
          attributes: { value: column.letter },
        }),
      ),
    );
    columnSelect.value = choice.column || first?.questionColumn || "";
    const start = element("button", {
      text: "Answer these questions",
      attributes: { type: "button", "data-role": "questionnaire-start" },
    });
    const cancel = element("button", { className: "secondary", text: "Cancel", attributes: { type: "button" } });
    panel.append(
      element("label", { className: "preview-choice", text: "Sheet " }, [sheetSelect]),
      element("label", { className: "preview-choice", text: "Question column " }, [columnSelect]),
      element("div", { className: "preview-actions" }, [start, cancel]),
    );
    scrollToEnd();
    const picked = await new Promise((resolve) => {
      start.addEventListener("click", () => resolve("start"), { once: true });
      cancel.addEventListener("click", () => resolve("cancel"), { once: true });
      sheetSelect.addEventListener("change", () => resolve("sheet"), { once: true });
      columnSelect.addEventListener("change", () => resolve("column"), { once: true });
    });
    if (picked === "cancel") {
      panel.remove();
      status.textContent = "Not answered.";
      message.setAttribute("data-status", "cancelled");
      return null;
    }
    if (picked === "start") {
      panel.remove();
      return choice;
    }
    if (picked === "sheet") {
      choice.sheet = sheetSelect.value;
      choice.column = "";
    } else {
      choice.sheet = choice.sheet || first?.sheet || "";
      choice.column = columnSelect.value;
    }
  }
}

async function answerQuestionnaire(file) {
  const { message, body } = addMessage("questionnaire", "Questionnaire");
  message.setAttribute("data-role", "questionnaire");
  body.textContent = file.name;
  const status = element("div", {
    className: "status-line",
    text: "Reading the questions…",
    attributes: { "data-role": "questionnaire-status" },
  });
  message.append(status);
  const choice = await confirmQuestionnaire(file, message, status);
  if (choice === null) return;
  const progressBar = element("progress", { attributes: { max: "100", value: "0" } });
  const cancel = element("button", { className: "secondary", text: "Cancel", attributes: { type: "button" } });
  message.append(progressBar, cancel);
  status.textContent = "Starting…";
  let jobId = null;
  cancel.addEventListener("click", async () => {
    if (!jobId) return;
    cancel.disabled = true;
    await fetch(inSpace(`/api/questionnaires/cancel?id=${encodeURIComponent(jobId)}`), {
      method: "POST",
      headers: { "X-Folio-Console": "1" },
    });
  });
  const { response, answer } = await sendQuestionnaire("", file, choice);
  if (!response.ok) {
    progressBar.remove();
    cancel.remove();
    status.textContent = answer.error?.message ?? `The server answered ${response.status}.`;
    message.setAttribute("data-status", "rejected");
    return;
  }
  jobId = answer.progress.jobId;
  let progress = answer.progress;
  while (progress.status === "queued" || progress.status === "running") {
    status.textContent = describeQuestionnaire(progress);
    progressBar.value = progress.total > 0 ? Math.floor((100 * progress.done) / progress.total) : 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const next = await fetch(inSpace(`/api/questionnaires/progress?id=${encodeURIComponent(jobId)}`), {
      headers: { "X-Folio-Console": "1" },
    });
    if (!next.ok) continue;
    progress = (await next.json()).progress;
  }
  progressBar.remove();
  cancel.remove();
  status.textContent = describeQuestionnaire(progress);
  message.setAttribute("data-status", progress.status);
  if (progress.copyError) {
    message.append(
      element("p", {
        className: "status-line",
        text: `The filled copy cannot be written: ${progress.copyError.message}`,
        attributes: { "data-role": "questionnaire-copy-error" },
      }),
    );
  } else if (progress.status === "succeeded" || progress.status === "cancelled") {
    const link = element("a", {
      text: progress.status === "succeeded" ? "Download the filled copy" : "Download the partly filled copy",
      attributes: {
        // Signed and short-lived (a page of another site can fetch neither it nor the header-only route).
        href: inSpace(progress.downloadUrl ?? `/api/questionnaires/filled?id=${encodeURIComponent(jobId)}`),
        download: "",
        "data-role": "questionnaire-download",
      },
    });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      void downloadFilledCopy(jobId, link, status);
    });
    message.append(link);
  }
  scrollToEnd();
}

/**
 * Fetches the filled copy with the console's header (so the link never expires in an open tab) and saves
 * it; a refusal — the copy cannot be written, or Folio is writing others (429) — is said in the status line.
 */
async function downloadFilledCopy(jobId, link, status) {
  link.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(`/api/questionnaires/filled?id=${encodeURIComponent(jobId)}`, {
      headers: { "X-Folio-Console": "1" },
    });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      status.textContent = answer.error?.message ?? `The server answered ${response.status}.`;
      return;
    }
    const disposition = response.headers.get("content-disposition") ?? "";
    const named = /filename\*=UTF-8''([^;]+)/.exec(disposition);
    const saving = element("a", {
      attributes: {
        href: URL.createObjectURL(await response.blob()),
        download: named ? decodeURIComponent(named[1]) : "filled copy",
      },
    });
    saving.click();
    setTimeout(() => URL.revokeObjectURL(saving.href), 60_000);
  } finally {
    link.removeAttribute("aria-busy");
  }
}

questionnaireInput.addEventListener("change", () => {
  const [file] = questionnaireInput.files;
  questionnaireInput.value = "";
  if (file) void answerQuestionnaire(file);
});

/* ---------- questions ---------- */

function parseServerSentEvents(buffer, onEvent) {
  let boundary = buffer.indexOf("\n\n");
  while (boundary !== -1) {
    const block = buffer.slice(0, boundary);
    buffer = buffer.slice(boundary + 2);
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (data) onEvent(JSON.parse(data));
    boundary = buffer.indexOf("\n\n");
  }
  return buffer;
}

async function askQuestion(question) {
  addMessage("question", "You").body.textContent = question;
  const { message, body } = addMessage("answer", "Folio");
  message.setAttribute("data-status", "streaming");
  const status = element("div", { className: "status-line", text: "Thinking…" });
  message.insertBefore(status, body);

  const fail = (text) => {
    status.remove();
    body.replaceChildren(element("span", { className: "error", text }));
    message.setAttribute("data-status", "error");
  };
  const handle = (event) => {
    if (event.type === "status") status.textContent = event.message;
    if (event.type === "delta") {
      body.textContent += event.text;
      scrollToEnd();
    }
    if (event.type === "citations") renderCitations(message, event.citations, false);
    if (event.type === "done") {
      status.remove();
      body.textContent = event.answer.answer;
      renderCitations(message, event.answer.citations, event.answer.noContext);
      message.setAttribute("data-status", "done");
      scrollToEnd();
    }
    if (event.type === "error") fail(`${event.message} (reference ${event.requestId})`);
  };

  try {
    const response = await fetch(inSpace("/api/ask"), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Folio-Console": "1" },
      body: JSON.stringify({ question }),
    });
    if (!response.ok || !response.body) {
      const data = await response.json().catch(() => ({}));
      fail(data.error?.message ?? `The server answered ${response.status}.`);
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer = parseServerSentEvents(buffer + value, handle);
    }
    if (message.getAttribute("data-status") === "streaming") fail("The answer was cut off; try again.");
  } catch (error) {
    fail(`The server could not be reached: ${error.message}`);
  }
}

askForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const question = questionBox.value.trim();
  if (!question) return;
  questionBox.value = "";
  askButton.disabled = true;
  try {
    await askQuestion(question);
  } finally {
    askButton.disabled = false;
    questionBox.focus();
  }
});

questionBox.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    askForm.requestSubmit();
  }
});

loadHistory().then(loadDocuments).then(loadApprovedAnswers).then(followDocumentChanges);
