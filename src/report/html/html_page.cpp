// The shell of every HTML report, and the HTML form of a table-engine document. Inline CSS, no
// script, no reference to anything outside the file, so a page opens the same offline, from an
// artifact store, or years later.

#include "report/html/html_page.hpp"

#include <fmt/format.h>

#include "report/html/html_svg.hpp"

namespace tare::report::detail {
namespace {

constexpr std::string_view style_sheet = R"(:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1120px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:0 0 8px}
h2{font-size:17px;margin:32px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:8px 0}
dt{color:#57606a}
dd{margin:0;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:8px 0}
th,td{padding:3px 10px;text-align:right;white-space:nowrap;border-bottom:1px solid #eaeef2}
th{background:#f6f8fa;font-weight:600}
th.l,td.l{text-align:left}
tr.error td{color:#cf222e}
.kinds{color:#9a6700}
figure{margin:16px 0}
figcaption{color:#57606a;font-size:12.5px;max-width:640px}
svg.plot{display:block;max-width:100%;height:auto}
svg .frame{fill:#fff;stroke:#d0d7de}
svg .grid{stroke:#eaeef2}
svg .tick,svg .axis-title{font-size:11px;fill:#57606a}
svg .band{fill:#0969da;fill-opacity:.15}
svg .mean{stroke:#0969da;stroke-width:1.5}
svg .fit{stroke:#bc4c00;stroke-width:1.5;stroke-dasharray:5 4}
svg .trace{fill:none;stroke:#1a7f37;stroke-width:1}
svg .dot{fill:#1f2328}
svg .outlier{fill:none;stroke-width:1.5}
svg .mild{stroke:#bf8700}
svg .severe{stroke:#cf222e}
ul.findings li{white-space:pre-wrap;margin:4px 0}
.warning{color:#9a6700}
.error strong{color:#cf222e}
pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;margin:4px 0}
)";

std::string render(const table::line& l) {
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

std::string render(const table::paragraph& p) {
    std::string out = "<p>";
    for (std::size_t i = 0; i < p.lines.size(); ++i)
        out += (i > 0 ? "<br>\n" : "") + render(p.lines[i]);
    return out + "</p>\n";
}

std::string render(const table::item_list& list) {
    std::string out = "<ul class=\"findings\">\n";
    for (const table::item& i : list.items) {
        out += fmt::format("<li class=\"{}\"><strong>{}</strong> {}</li>\n",
                           i.label == "error" ? "error" : "warning", html_escape(i.label), render(i.text));
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

std::string html_page(std::string_view title, std::string_view body) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>" + html_escape(title) + "</title>\n";
    out += "<style>\n" + std::string(style_sheet) + "</style>\n</head>\n<body>\n";
    out += body;
    return out + "</body>\n</html>\n";
}

std::string render_html(const table::document& doc) {
    std::string out;
    for (const table::block& b : doc.blocks)
        out += std::visit([](const auto& content) { return render(content); }, b.content);
    return out;
}

}  // namespace tare::report::detail
