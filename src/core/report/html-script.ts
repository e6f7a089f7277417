// The HTML report's script, inlined into the page: filtering of the case list, the
// matrix's cells as filters, and the drill-down of one case drawn from the embedded
// data, which it first unpacks (base64, then gzip through DecompressionStream; no
// network request: a Blob and a Response are made in memory). It builds the DOM with
// textContent only (run data never becomes markup), and keeps the open case in the URL's
// #fragment for links. Once the data is in, the root element gets data-loaded.
// Plain ES2017 in a string, with no backquotes, so it needs no build step.

export const HTML_SCRIPT = String.raw`
(function () {
  "use strict";
  var data = null, blobs = null, pending = null;
  var SYM = { "new": "\u2717", unchecked: "!", known: "~", unjudged: "?", ok: "\u2713", none: "\u2013", skipped: "\u25cb" };

  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (attrs[k] === undefined || attrs[k] === null || attrs[k] === false) continue;
      if (k === "text") el.textContent = attrs[k];
      else if (k === "cls") el.className = attrs[k];
      else if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), attrs[k]);
      else el.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }
  function append(el) {
    for (var i = 1; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === undefined || c === null || c === false) continue;
      if (Array.isArray(c)) c.forEach(function (x) { append(el, x); });
      else el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
  }
  function blob(i) { return i >= 0 ? blobs[i] : undefined; }
  function hexOf(answer) { return answer.hex.map(blob); }
  // A gRPC answer's decoded form is stored per message.
  function jsonOf(answer) { return Array.isArray(answer.json) ? answer.json.map(blob) : blob(answer.json); }
  function show(v) { return v === undefined ? "(absent)" : JSON.stringify(v); }

  function outcomeOf(c, build) {
    return (c.outcomes || []).filter(function (o) { return o.build === build; })[0];
  }

  function statusOf(c, build) {
    if (c.skipped) return "skipped";
    var answer = c.answers.filter(function (a) { return a.side === build; })[0];
    if (!answer) return "none";
    var outcome = outcomeOf(c, build);
    if ((outcome && outcome.outcome === "unchecked") || (!outcome && answer.fault)) return "unchecked";
    if (outcome && outcome.outcome === "unjudged") return "unjudged";
    var mine = c.divergences.filter(function (d) { return d.build === build; });
    if (mine.some(function (d) { return d.quirk === null; })) return "new";
    if ((c.drift || []).some(function (d) { return d.build === build && d.status === "changed"; })) return "new";
    return mine.length > 0 ? "known" : "ok";
  }

  // ---- the case list and its filters ----
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.case"));
  var q = document.getElementById("q"), statusSel = document.getElementById("status"), buildSel = document.getElementById("build");
  var chip = document.getElementById("methodchip"), count = document.getElementById("count");
  var state = { method: "" };

  function applyFilter() {
    var text = q.value.trim().toLowerCase(), st = statusSel.value, b = buildSel.value, shown = 0;
    rows.forEach(function (row) {
      var status = row.getAttribute("data-status");
      if (b) {
        var cell = row.querySelector('td.mini[data-build="' + CSS.escape(b) + '"]');
        status = cell ? cell.getAttribute("data-status") : "none";
      }
      var ok = (!text || row.getAttribute("data-text").indexOf(text) >= 0 || row.getAttribute("data-id").toLowerCase().indexOf(text) >= 0)
        && (!st || status === st) && (!state.method || row.getAttribute("data-method") === state.method)
        && (!b || status !== "none");
      row.hidden = !ok;
      if (ok) shown++;
    });
    chip.hidden = !state.method;
    chip.textContent = state.method ? state.method + " \u00d7" : "";
    count.textContent = shown + " of " + rows.length + " cases";
  }
  [q, statusSel, buildSel].forEach(function (el) { el.addEventListener("input", applyFilter); });
  chip.addEventListener("click", function () { state.method = ""; selectCell(null); applyFilter(); });

  function selectCell(td) {
    Array.prototype.forEach.call(document.querySelectorAll("td.cell.selected"), function (x) { x.classList.remove("selected"); });
    if (td) td.classList.add("selected");
  }
  Array.prototype.forEach.call(document.querySelectorAll("#matrix td.cell"), function (td) {
    td.addEventListener("click", function () {
      state.method = td.getAttribute("data-method");
      buildSel.value = td.getAttribute("data-build");
      statusSel.value = td.classList.contains("new") ? "new" : td.classList.contains("known") ? "known" : "";
      selectCell(td);
      applyFilter();
      var first = rows.filter(function (r) { return !r.hidden; })[0];
      if (first) open(Number(first.getAttribute("data-index")), buildSel.value);
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll("#matrix th.method"), function (th) {
    th.addEventListener("click", function () { state.method = th.getAttribute("data-method"); selectCell(null); applyFilter(); });
  });
  rows.forEach(function (row) {
    row.addEventListener("click", function () { open(Number(row.getAttribute("data-index")), buildSel.value); });
    row.addEventListener("keydown", function (e) {
      var visible = rows.filter(function (r) { return !r.hidden; }), at = visible.indexOf(row);
      if (e.key === "Enter") open(Number(row.getAttribute("data-index")), buildSel.value);
      else if (e.key === "ArrowDown" && visible[at + 1]) { visible[at + 1].focus(); e.preventDefault(); }
      else if (e.key === "ArrowUp" && at > 0) { visible[at - 1].focus(); e.preventDefault(); }
    });
  });

  // ---- the drill-down ----
  var detail = document.getElementById("detail");

  function referenceOf(c, build) {
    if (c.expect.indexOf("error") === 0) return { name: "expected", expect: c.expect };
    var p = c.patches.filter(function (x) { return x.right === build; })[0];
    var d = c.divergences.filter(function (x) { return x.build === build; })[0];
    var name = p ? p.left : d ? d.left : c.oracle ? "oracle" : null;
    if (!name && c.verdict) {
      var group = c.verdict.groups.filter(function (g) { return g.indexOf(build) >= 0; })[0] || [];
      name = group.filter(function (s) { return s !== build; })[0] || null;
    }
    if (!name) return null;
    // A build judged under an older protocol version is measured against the oracle's answer under that version's rules.
    var answer = name === "oracle" ? c.oracle : (c.otherOracles || []).concat(c.answers).filter(function (a) { return a.side === name; })[0];
    return { name: name, answer: answer };
  }

  function hexHtml(hex, other) {
    // Hex digits only (checked), so building markup from it is safe.
    if (!/^[0-9a-f]*$/.test(hex)) return null;
    var out = [], line = [];
    for (var i = 0; i < hex.length; i += 2) {
      var byte = hex.substr(i, 2);
      var differs = other !== undefined && other.substr(i, 2) !== byte;
      line.push((differs ? "<mark>" + byte + "</mark>" : byte) + ((i / 2) % 4 === 3 ? " " : ""));
      if ((i / 2) % 16 === 15 || i + 2 >= hex.length) {
        var off = ((i / 2) - (i / 2) % 16).toString(16);
        out.push('<span class="msgno">' + ("00000" + off).slice(-6) + "</span>  " + line.join(""));
        line = [];
      }
    }
    return out.join("\n");
  }

  function hexBlock(answer, other) {
    var hex = hexOf(answer), otherHex = other ? hexOf(other) : [];
    var pre = h("pre", { cls: "hex" });
    var parts = [];
    hex.forEach(function (m, k) {
      var body = hexHtml(m, otherHex[k]);
      parts.push('<span class="msgno"># message ' + (k + 1) + " \u00b7 " + (m.length / 2) + " bytes</span>\n" + (body === null ? "" : body));
    });
    if (hex.length === 0) parts.push('<span class="msgno">(no messages)</span>');
    pre.innerHTML = parts.join("\n");
    return pre;
  }

  // One side's answer as three cells (head, decoded JSON, hex), so the two sides' rows line up.
  function sideCells(title, answer, other, cls) {
    var k = "side " + (cls || "");
    if (!answer) return [h("div", { cls: k + " shead" }, h("b", { text: title }), " \u00b7 no answer"), h("div", { cls: k }), h("div", { cls: k })];
    var err = answer.status !== "OK";
    var facts = [answer.count + " msg", answer.wireBytes + " B", answer.ms + " ms"];
    if (answer.protocolVersion) facts.push("protocol " + answer.protocolVersion);
    // A deadline case whose earlier calls zconform's own stalled loop left unclear.
    if (answer.askedAgain) facts.push("asked " + (answer.askedAgain.length + 1) + "\u00d7 (zconform stood still " + answer.askedAgain.join(", ") + " ms before)");
    var json = jsonOf(answer);
    return [
      h("div", { cls: k + " shead", "data-side": answer.side }, h("b", { text: title }), " ",
        h("span", { cls: "status" + (err ? " err" : ""), text: answer.status + (answer.message ? ": " + answer.message : "") }),
        h("span", { cls: "muted", text: " \u00b7 " + facts.join(" \u00b7 ") }),
        answer.fault ? h("div", { cls: "status err", text: "fault " + answer.fault.kind + ": " + answer.fault.detail }) : null,
        answer.truncated ? h("div", { cls: "trunc", text: answer.truncated }) : null),
      h("div", { cls: k + " sjson" }, h("h4", { text: "decoded JSON" }), h("pre", { cls: "json", text: json === undefined ? "(none)" : JSON.stringify(json, null, 2) })),
      h("div", { cls: k + " shex" }, h("h4", { text: "bytes (hex)" }), hexBlock(answer, other)),
    ];
  }

  function quirkCell(d) {
    if (d.quirk === null) return h("td", null, h("span", { cls: "badge new", text: "NEW" }));
    var q = data.quirks[d.quirk];
    var ref = q && q.reference;
    return h("td", { cls: "quirk" }, h("span", { cls: "badge known", text: d.quirk }),
      q ? h("div", { text: q.title }) : null,
      ref ? h("div", { cls: "muted" }, /^https?:\/\//.test(ref) ? h("a", { href: ref, target: "_blank", rel: "noopener noreferrer", text: ref }) : ref) : null);
  }

  function commandBox(label, cmds) {
    if (!cmds || cmds.length === 0) return null;
    return h("div", null, h("div", { cls: "muted", text: label }), cmds.map(function (c) {
      var pre = h("pre", { cls: "command", text: c.command });
      // The clipboard API may be refused to a file:// page: then the text is selected for the reader to copy.
      var select = function () { var r = document.createRange(); r.selectNodeContents(pre); var sel = getSelection(); sel.removeAllRanges(); sel.addRange(r); btn.textContent = "selected"; };
      var btn = h("button", { type: "button", text: "copy", onclick: function () {
        if (navigator.clipboard) navigator.clipboard.writeText(c.command).then(function () { btn.textContent = "copied"; }, select);
        else select();
      } });
      return h("div", { cls: "cmd" }, h("div", { cls: "tool", text: c.tool }), pre, btn, c.note ? h("div", { cls: "cnote", text: c.note }) : null);
    }));
  }

  function buildPanel(c, build) {
    var answer = c.answers.filter(function (a) { return a.side === build; })[0];
    var ref = referenceOf(c, build);
    var divs = c.divergences.filter(function (d) { return d.build === build; });
    var patches = c.patches.filter(function (p) { return p.right === build; });
    var drift = (c.drift || []).filter(function (d) { return d.build === build && d.status !== "unchanged"; });
    var refName = ref ? ref.name : "reference";
    var panel = h("div", { cls: "panel", "data-build": build });
    var status = statusOf(c, build), outcome = outcomeOf(c, build);
    var heading = status === "unchecked" ? "could not check " + build + ": " + (outcome && outcome.reason ? outcome.reason : answer && answer.fault ? answer.fault.kind + ": " + answer.fault.detail : "no answer")
      : status === "unjudged" ? "unjudged: " + (outcome && outcome.reason ? outcome.reason : "nothing to measure " + build + " against")
      : divs.length ? "divergences of " + build + " from " + refName : "no divergence from " + refName;
    append(panel, h("h3", { cls: status === "unchecked" ? "bad" : null, text: heading }));
    if (divs.length) {
      append(panel, h("table", { cls: "divs" },
        h("thead", null, h("tr", null, ["kind", "path", refName, build, "quirk"].map(function (t) { return h("th", { text: t }); }))),
        h("tbody", null, divs.map(function (d) {
          return h("tr", null, h("td", { text: d.kind }), h("td", { cls: "path", text: d.path || "(whole answer)" }),
            h("td", { cls: "val", text: show(d.leftValue) }), h("td", { cls: "val", text: show(d.rightValue), title: d.detail }), quirkCell(d));
        }))));
    }
    patches.forEach(function (p) {
      var brief = function (o) {
        if (o.op === "replace") return show(o.old) + " \u2192 " + show(o.value);
        if (o.op === "remove") return "was " + show(o.old);
        return show(o.value);
      };
      append(panel, h("h3", { text: "JSON Patch " + p.left + " \u2192 " + p.right + " (RFC 6902, " + p.ops.length + " ops)" }),
        h("table", { cls: "patch" }, h("tbody", null, p.ops.map(function (o) {
          var text = brief(o);
          return h("tr", null, h("td", { cls: "op " + o.op, text: o.op }), h("td", { cls: "ppath", text: o.path || "(whole)", title: o.path }),
            h("td", { text: text, title: text.length > 80 ? text.slice(0, 2000) : undefined }));
        }))),
        h("details", { cls: "raw" }, h("summary", { text: "as JSON" }),
          h("pre", { cls: "patch", text: JSON.stringify(p.ops.map(function (o) { var x = { op: o.op, path: o.path }; if (o.value !== undefined) x.value = o.value; return x; }), null, 1) })));
    });
    drift.forEach(function (d) {
      append(panel, h("h3", { text: "golden: " + d.status }),
        h("pre", { text: d.divergences.map(function (x) { return x.kind + " " + (x.path || "(whole answer)") + ": " + show(x.leftValue) + " \u2192 " + show(x.rightValue); }).join("\n") || d.status }));
    });
    var left = ref && ref.expect
      ? [h("div", { cls: "side ref shead" }, h("b", { text: "expected" }), " ", h("span", { cls: "status", text: ref.expect })),
        h("div", { cls: "side ref" }, h("p", { cls: "note", text: "The case prescribes an error; only the code is compared." })), h("div", { cls: "side ref" })]
      : sideCells(ref ? ref.name : "reference", ref && ref.answer, answer, "ref");
    var right = sideCells(build, answer, ref && ref.answer, "this");
    append(panel, h("h3", { text: "answers" }), h("div", { cls: "sides" }, left[0], right[0], left[1], right[1], left[2], right[2]));
    append(panel, h("h3", { text: "reproduce" }), commandBox(build, c.reproduce[build]) || h("p", { cls: "muted", text: "no endpoint known for " + build }));
    if (ref && ref.name !== build && c.reproduce[ref.name]) append(panel, commandBox(ref.name, c.reproduce[ref.name]));
    if (ref && ref.name === "oracle" && c.transport === "grpc") append(panel, h("p", { cls: "note", text: "The oracle's gRPC answer is derived from Zebra JSON-RPC calls; there is no single call to repeat." }));
    return panel;
  }

  function open(i, preferred) {
    if (!data) { pending = [i, preferred]; return; }
    var c = data.cases[i];
    if (!c) return;
    rows.forEach(function (r) { r.classList.toggle("current", Number(r.getAttribute("data-index")) === i); });
    var sides = c.answers.map(function (a) { return a.side; });
    var build = sides.indexOf(preferred) >= 0 ? preferred
      : sides.filter(function (s) { return statusOf(c, s) === "new"; })[0] || sides.filter(function (s) { return statusOf(c, s) === "known"; })[0] || sides[0];
    var v = c.verdict;
    var kv = h("dl", { cls: "kv" },
      h("dt", { text: "method" }), h("dd", { cls: "mono", text: c.transport + " " + c.method }),
      h("dt", { text: "expect" }), h("dd", { text: c.expect }),
      h("dt", { text: "verdict" }), h("dd", null, c.skipped ? "skipped: " + c.skipped : v ? [h("b", { text: v.verdict }), " \u00b7 reference: " + v.reference + (v.detail ? " \u00b7 " + v.detail : "")] : "\u2013"),
      v && v.groups.length > 1 ? [h("dt", { text: "groups" }), h("dd", { cls: "mono", text: v.groups.map(function (g) { return "[" + g.join(", ") + "]"; }).join(" ") })] : null,
      h("dt", { text: "source" }), h("dd", { cls: "mono", text: c.source }),
      c.tags.length ? [h("dt", { text: "tags" }), h("dd", { text: c.tags.join(", ") })] : null,
      c.unordered ? [h("dt", { text: "compared" }), h("dd", { text: "as a multiset (unordered)" })] : null,
      h("dt", { text: "volatile" }), h("dd", { cls: "mono", text: c.volatile.length ? c.volatile.join(", ") : "none declared" }),
      c.excluded.length ? [h("dt", { text: "excluded" }), h("dd", { cls: "mono", text: c.excluded.map(function (e) { return e.side + ": " + e.paths.join(", "); }).join("; ") })] : null);
    var content = [
      h("div", { cls: "dhead" }, h("h2", { text: c.caseId }), c.title ? h("span", { cls: "ctitle", text: c.title }) : null),
      kv,
      h("h3", { text: "request" }), h("pre", { cls: "request", text: c.request === undefined ? "(none)" : JSON.stringify(c.request, null, 2) }),
    ];
    var panelHost = h("div");
    if (sides.length > 0) {
      var tabs = h("div", { cls: "tabs", role: "tablist" }, sides.map(function (s) {
        var st = statusOf(c, s);
        return h("button", { type: "button", role: "tab", "data-build": s, "aria-selected": s === build ? "true" : "false",
          onclick: function () { open(i, s); } }, s, h("span", { cls: "sym " + st, text: SYM[st] }));
      }));
      content.push(tabs, panelHost);
      append(panelHost, buildPanel(c, build));
    }
    detail.textContent = "";
    append(detail, content);
    var hash = "#case=" + encodeURIComponent(c.caseId) + (build ? "&build=" + encodeURIComponent(build) : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function fromHash() {
    var m = /^#case=([^&]*)(?:&build=(.*))?$/.exec(location.hash);
    if (!m || !data) return;
    var id = decodeURIComponent(m[1]), build = m[2] ? decodeURIComponent(m[2]) : undefined;
    for (var i = 0; i < data.cases.length; i++) if (data.cases[i].caseId === id) { open(i, build); return; }
  }
  function unpack() {
    var text = atob(document.getElementById("zconform-data").textContent.replace(/\s+/g, ""));
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(JSON.parse);
  }

  window.addEventListener("hashchange", fromHash);
  applyFilter();
  if (typeof DecompressionStream === "undefined") {
    detail.textContent = "This browser cannot unpack the report's embedded data (it needs DecompressionStream: Chromium 80, Firefox 113, Safari 16.4 or later); the JSON report has the same data.";
    return;
  }
  unpack().then(function (d) {
    data = d;
    blobs = d.blobs;
    document.documentElement.setAttribute("data-loaded", "");
    if (pending) open(pending[0], pending[1]);
    else fromHash();
  }, function (e) {
    detail.textContent = "The report's embedded data could not be read (" + e + "); the JSON report has the same data.";
  });
})();
`;
