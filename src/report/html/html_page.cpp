// The shell of every HTML report, and the HTML form of a table-engine document. Inline CSS, no
// reference to anything outside the file, so a page opens the same offline, from an artifact
// store, or years later. A page may carry one small inline script (sorting a table); it reads
// the same without it.

#include "report/html/html_page.hpp"

#include <fmt/format.h>

#include "report/html/html_svg.hpp"

namespace tare::report::detail {
namespace {

constexpr std::string_view style_sheet = R"(:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1240px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:0 0 8px}
h2{font-size:17px;margin:32px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:8px 0}
dt{color:#57606a}
dd{margin:0;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:8px 0}
th,td{padding:3px 8px;text-align:right;white-space:nowrap;border-bottom:1px solid #eaeef2}
th{white-space:normal}
td.name{white-space:normal;overflow-wrap:anywhere;min-width:110px;max-width:340px}
tr.suite th{text-align:left;background:#fff;padding-top:12px;font-size:13px;color:#57606a}
th[data-sort]{cursor:pointer}
th[data-sort]::after{content:" \2195";color:#8c959f}
.badge{display:inline-block;margin:1px 0 1px 4px;padding:0 6px;border-radius:9px;font-size:11.5px;line-height:17px;white-space:nowrap;background:#fff8c5;color:#7d4e00;border:1px solid #eac54f}
.badge.error{background:#ffebe9;color:#a40e26;border-color:#ff8182}
td.faster,.verdict-faster{color:#1a7f37;font-weight:600}
td.slower,.verdict-slower{color:#cf222e;font-weight:600}
td.changed{background:#fff8c5}
.summary-line{font-size:16px}
.plots{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start}
.plots figure{margin:8px 0}
details>summary{cursor:pointer}
th{background:#f6f8fa;font-weight:600}
th.l,td.l{text-align:left}
tr.error td{color:#cf222e}
.kinds{color:#9a6700}
figure{margin:16px 0}
figcaption{color:#57606a;font-size:12.5px;max-width:640px}
svg.plot{display:block;max-width:100%;height:auto}
svg .frame{fill:#fff;stroke:#d0d7de}
svg .grid{stroke:#eaeef2}
svg .tick,svg .axis-title,svg .yt,svg .xt,svg .legend text{font-size:11px;fill:#57606a}
svg .yt text{text-anchor:end;dominant-baseline:central}
svg .xt text,svg .axis-title{text-anchor:middle}
svg .legend text{dominant-baseline:central}
section.benchmark{content-visibility:auto;contain-intrinsic-size:auto 900px}
svg .band{fill:#0969da;fill-opacity:.15}
svg .mean{stroke:#0969da;stroke-width:1.5}
svg .fit{stroke:#bc4c00;stroke-width:1.5;stroke-dasharray:5 4}
svg .trace{fill:none;stroke:#1a7f37;stroke-width:1}
svg .dot{fill:#1f2328}
svg .dots{fill:none;stroke:#1f2328;stroke-width:5;stroke-linecap:round}
svg .clipped{fill:#cf222e}
svg .clipped-count{font-size:11px;fill:#cf222e}
svg .bar{fill:#8c959f}
svg .threshold{fill:#8c959f;fill-opacity:.18}
svg .zero{stroke:#57606a;stroke-width:1}
svg .ci{stroke-width:2;stroke:#8c959f}
svg .arrow{fill:#8c959f}
svg .estimate{fill:#8c959f}
svg .label{font-size:12px;fill:#1f2328}
svg .faster .ci,svg .faster .arrow,svg .faster .estimate,svg rect.faster{stroke:#1a7f37;fill:#1a7f37}
svg .faster .ci{fill:none}
svg .slower .ci,svg .slower .arrow,svg .slower .estimate,svg rect.slower{stroke:#cf222e;fill:#cf222e}
svg .slower .ci{fill:none}
svg .unjudged .estimate{fill:#fff;stroke:#57606a;stroke-width:1.5}
svg .error .label{fill:#cf222e}
svg .dot.faster{fill:#1a7f37}
svg .dot.slower{fill:#cf222e}
svg .dot.same{fill:#8c959f}
svg .dot.unjudged{fill:#fff;stroke:#57606a;stroke-width:1.5}
h3{font-size:15px;margin:20px 0 4px;font-weight:600}
svg .outlier{fill:none;stroke-width:1.5}
svg .mild{stroke:#bf8700}
svg .severe{stroke:#cf222e}
ul.findings li{white-space:pre-wrap;margin:4px 0}
.warning{color:#9a6700}
.error strong{color:#cf222e}
pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;margin:4px 0}
)";

// Sorts rows by the clicked header's column, ascending then descending; cells without a number
// (no change computed) go last either way. Plain ES5, no dependency, about 0.8 KB.
constexpr std::string_view sort_script = R"(document.querySelectorAll("table.sortable").forEach(function(t){
t.querySelectorAll("th[data-sort]").forEach(function(th){th.addEventListener("click",function(){
var i=th.cellIndex,body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
var up=th.getAttribute("aria-sort")!=="ascending";
t.querySelectorAll("th[data-sort]").forEach(function(o){o.removeAttribute("aria-sort");});
th.setAttribute("aria-sort",up?"ascending":"descending");
var key=function(r){var c=r.cells[i],v=c.getAttribute("data-v");
return th.getAttribute("data-sort")==="num"?(v===null||v===""?NaN:parseFloat(v)):c.textContent;};
rows.sort(function(a,b){var x=key(a),y=key(b);
if(typeof x==="number"){if(isNaN(x))return isNaN(y)?0:1;if(isNaN(y))return -1;return up?x-y:y-x;}
return up?x.localeCompare(y):y.localeCompare(x);});
rows.forEach(function(r){body.appendChild(r);});});});});
)";

}  // namespace

std::string render_html(const table::line& l) {
    std::string out;
    for (const table::span& s : l) {
        switch (s.style) {
        case table::style::plain:
            out += html_escape(s.text);
            break;
        case table::style::code:
            out += "<code>" + html_escape(s.text) + "</code>";
            break;
        case table::style::strong:
            out += "<strong>" + html_escape(s.text) + "</strong>";
            break;
        case table::style::note:
            out += "<em>" + html_escape(s.text) + "</em>";
            break;
        }
    }
    return out;
}

namespace {

std::string render(const table::paragraph& p) {
    std::string out = "<p>";
    for (std::size_t i = 0; i < p.lines.size(); ++i)
        out += (i > 0 ? "<br>\n" : "") + render_html(p.lines[i]);
    return out + "</p>\n";
}

std::string render(const table::item_list& list) {
    std::string out = "<ul class=\"findings\">\n";
    for (const table::item& i : list.items) {
        out +=
            fmt::format("<li class=\"{}\"><strong>{}</strong> {}</li>\n",
                        i.label == "error" ? "error" : "warning", html_escape(i.label), render_html(i.text));
    }
    return out + "</ul>\n";
}

std::string render(const table::grid& g) {
    const auto cls = [](const table::column& c) {
        return c.alignment == table::align::left ? std::string(" class=\"l\"") : std::string();
    };
    std::string out = "<div class=\"scroll\"><table>\n<thead><tr>";
    for (const table::column& c : g.columns)
        out += fmt::format("<th{}>{}</th>", cls(c), html_escape(c.header));
    out += "</tr></thead>\n<tbody>\n";
    for (std::size_t row = 0; row < g.rows(); ++row) {
        out += "<tr>";
        for (const table::column& c : g.columns) {
            const std::string text = html_escape(table::join_cell(c, c.cells[row]));
            out += fmt::format("<td{}>{}</td>", cls(c), c.names ? "<code>" + text + "</code>" : text);
        }
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table></div>\n";
}

}  // namespace

std::string html_page_head(std::string_view title, std::string_view more_style) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>" + html_escape(title) + "</title>\n";
    out += "<style>\n" + std::string(style_sheet) + std::string(more_style) + "</style>\n</head>\n<body>\n";
    return out;
}

std::string html_page_tail(bool sortable) {
    return (sortable ? "<script>\n" + std::string(sort_script) + "</script>\n" : std::string()) +
           "</body>\n</html>\n";
}

std::string html_page(std::string_view title, std::string_view body, bool sortable,
                      std::string_view more_style) {
    // One allocation for the page, which a large comparison makes tens of megabytes long: every
    // copy of it is that much more memory at the peak.
    const std::string head = html_page_head(title, more_style);
    const std::string tail = html_page_tail(sortable);
    std::string out;
    out.reserve(head.size() + body.size() + tail.size());
    out += head;
    out += body;
    out += tail;
    return out;
}

std::string render_html(const table::document& doc) {
    std::string out;
    for (const table::block& b : doc.blocks)
        out += std::visit([](const auto& content) { return render(content); }, b.content);
    return out;
}

}  // namespace tare::report::detail
