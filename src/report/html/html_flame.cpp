#include "report/html/html_flame.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "model/hash.hpp"
#include "report/html/html_svg.hpp"
#include "report/profile/profile_files.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {

namespace {

constexpr double flame_width = 1200;
constexpr double flame_row = 17;
constexpr double flame_char = 6.6;        // of the 11 px monospace labels, in the graph's units
constexpr double flame_narrowest = 1e-4;  // frames narrower than this share of the graph are left out
constexpr double flame_saturated = 0.10;  // a differential frame's colour is deepest at ±10 %
// Frames below this depth are folded into the frame at it: the graph stays readable, and drawing
// a stack (read from a file, of any length) recurses no deeper.
constexpr std::size_t flame_depth = 256;

struct flame_node {
    std::string name;
    double value = 0;  // inclusive: the frame and its callees
    double base = 0;
    std::vector<flame_node> children;
    std::map<std::string, std::size_t> index;

    flame_node& child(const std::string& n) {
        auto [it, added] = index.try_emplace(n, children.size());
        if (added) {
            children.push_back(flame_node{n, 0, 0, {}, {}});
        }
        return children[it->second];
    }
};

// Warm colours for instructions and green ones for memory, as flamegraph.pl's palettes: the hue
// varies by name (the same function the same colour in every graph), never by cost.
std::string flame_colour(std::string_view name, bool bytes) {
    const std::uint32_t h = fnv1a_32(name);
    const unsigned a = h & 0xFFU;
    const unsigned b = (h >> 8U) & 0xFFU;
    if (bytes) {
        return fmt::format("rgb({},{},{})", 40 + a * 60 / 255, 170 + b * 60 / 255, 70 + a * 50 / 255);
    }
    return fmt::format("rgb({},{},{})", 205 + a * 50 / 255, 80 + b * 150 / 255, 40 + a * 30 / 255);
}

std::string flame_change_colour(const flame_node& n) {
    if (n.base <= 0) {
        return "rgb(220,40,40)";  // only in head
    }
    const double change = (n.value - n.base) / n.base;
    const double depth = std::min(1.0, std::abs(change) / flame_saturated);
    const auto pale = static_cast<int>(std::lround(235 - 185 * depth));
    return change > 0 ? fmt::format("rgb(235,{0},{0})", pale) : fmt::format("rgb({0},{0},235)", pale);
}

std::string flame_label(std::string_view name, double width) {
    const auto fits = static_cast<std::size_t>(std::max(0.0, (width - 6) / flame_char));
    if (fits < 3) {
        return {};
    }
    if (name.size() <= fits) {
        return std::string(name);
    }
    return std::string(name.substr(0, fits - 1)) + "…";
}

struct flame_drawing {
    std::string frames;
    std::size_t depth = 0;
    double total = 0;
    bool differential = false;
    bool bytes = false;
    std::string_view unit;
};

std::string flame_figure(const flame_node& n, const flame_drawing& d) {
    std::string out = (d.bytes ? format_bytes(n.value) : format_exact_count(n.value)) + " " +
                      std::string(d.unit) + " (" + format_percent(100 * n.value / d.total) + ")";
    if (d.differential) {
        out += ", base " + (d.bytes ? format_bytes(n.base) : format_exact_count(n.base));
        if (n.base > 0) {
            out += " (" + format_signed_percent(100 * (n.value - n.base) / n.base) + ")";
        }
    }
    return out;
}

void draw_frames(const flame_node& n, double x, std::size_t depth, flame_drawing& d) {
    const double w = n.value / d.total;
    if (w < flame_narrowest) {
        return;
    }
    d.depth = std::max(d.depth, depth);
    const std::string fill = d.differential ? flame_change_colour(n) : flame_colour(n.name, d.bytes);
    const double px = x * flame_width;
    const double pw = w * flame_width;
    const double y = static_cast<double>(depth) * flame_row;
    d.frames += fmt::format(
        "<g class=\"fr\" data-x=\"{:.6f}\" data-w=\"{:.6f}\" data-d=\"{}\" data-n=\"{}\"><title>{} — "
        "{}</title>"
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/><text x=\"{}\" "
        "y=\"{}\">{}</text></g>\n",
        x, w, depth, html_escape(n.name), html_escape(n.name), html_escape(flame_figure(n, d)),
        svg_number(px), svg_number(y), svg_number(std::max(pw - 0.5, 0.1)), svg_number(flame_row - 1), fill,
        svg_number(px + 3), svg_number(y + 12), html_escape(flame_label(n.name, pw)));
    // Callees left to right by cost, the largest first, so the graph reads the same every time.
    std::vector<const flame_node*> order;
    for (const flame_node& c : n.children) {
        order.push_back(&c);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const flame_node* a, const flame_node* b) { return a->value > b->value; });
    double at = x;
    for (const flame_node* c : order) {
        draw_frames(*c, at, depth + 1, d);
        at += c->value / d.total;
    }
}

}  // namespace

std::vector<flame_stack> instruction_stacks(const instruction_profile& p) {
    std::vector<flame_stack> out;
    for (const profile_stack& s : p.stacks) {
        flame_stack f;
        for (std::uint32_t i : s.frames) {
            f.frames.push_back(i < p.frames.size() ? p.frames[i] : "?");
        }
        f.value = s.self;
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<flame_stack> allocation_stacks(const std::vector<alloc_site>& sites) {
    std::vector<flame_stack> out;
    for (const alloc_site& s : sites) {
        flame_stack f;
        if (std::string thread = thread_frame(s); !thread.empty()) {
            f.frames.push_back(std::move(thread));
        }
        for (auto it = s.stack.rbegin(); it != s.stack.rend(); ++it) {
            f.frames.push_back(it->function);
        }
        f.value = s.bytes_per_iter;
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<flame_stack> differential_stacks(const instruction_profile& base,
                                             const instruction_profile& head) {
    std::map<std::vector<std::string>, double> in_base;
    for (flame_stack& s : instruction_stacks(base)) {
        in_base[s.frames] += s.value;
    }
    std::vector<flame_stack> out = instruction_stacks(head);
    for (flame_stack& s : out) {
        const auto it = in_base.find(s.frames);
        s.base = it == in_base.end() ? 0 : it->second;
    }
    return out;
}

std::string flame_graph(const std::vector<flame_stack>& stacks, std::string_view caption,
                        std::string_view unit, bool bytes) {
    flame_node root{"all", 0, 0, {}, {}};
    bool differential = false;
    for (const flame_stack& s : stacks) {
        if (!std::isfinite(s.value) || s.value <= 0) {
            continue;
        }
        differential = differential || s.base.has_value();
        const double base = s.base.value_or(0);
        root.value += s.value;
        root.base += base;
        flame_node* at = &root;
        for (std::size_t k = 0; k < std::min(s.frames.size(), flame_depth); ++k) {
            at = &at->child(s.frames[k]);
            at->value += s.value;
            at->base += base;
        }
    }
    if (!(root.value > 0) || !std::isfinite(root.value) || !std::isfinite(root.base)) {
        return {};  // nothing to draw, or figures too large to add up
    }
    flame_drawing d;
    d.total = root.value;
    d.differential = differential;
    d.bytes = bytes;
    d.unit = unit;
    draw_frames(root, 0, 0, d);
    const double height = static_cast<double>(d.depth + 1) * flame_row;
    return fmt::format(
        "<figure class=\"flame\"><figcaption>{}</figcaption>\n<svg class=\"flame\" viewBox=\"0 0 {} {}\" "
        "role=\"img\" aria-label=\"{}\">\n{}</svg></figure>\n",
        html_escape(caption), svg_number(flame_width), svg_number(height), html_escape(caption), d.frames);
}

// A click on a frame shows it and its callees across the whole width and its callers above it,
// full width and faded; a click on "all" shows everything again. Labels are cut to the new widths.
const std::string_view flame_script = R"(document.querySelectorAll('svg.flame').forEach(svg => {
  const W = 1200, C = 6.6;
  const frames = [...svg.querySelectorAll('g.fr')];
  const label = (n, w) => { const k = Math.floor((w - 6) / C); return k < 3 ? '' : n.length <= k ? n : n.slice(0, k - 1) + '\u2026'; };
  const zoom = g => {
    const x0 = +g.dataset.x, w0 = +g.dataset.w, d0 = +g.dataset.d, eps = 1e-7;
    frames.forEach(f => {
      const x = +f.dataset.x, w = +f.dataset.w, d = +f.dataset.d;
      const r = f.querySelector('rect'), t = f.querySelector('text');
      let nx = 0, nw = 0, shown = true;
      if (d >= d0 && x >= x0 - eps && x + w <= x0 + w0 + eps) { nx = (x - x0) / w0 * W; nw = w / w0 * W; }
      else if (d < d0 && x <= x0 + eps && x + w >= x0 + w0 - eps) { nw = W; }
      else shown = false;
      f.style.display = shown ? '' : 'none';
      f.classList.toggle('above', shown && d < d0);
      r.setAttribute('x', nx); r.setAttribute('width', Math.max(nw - 0.5, 0.1));
      t.setAttribute('x', nx + 3); t.textContent = label(f.dataset.n, nw);
    });
  };
  svg.addEventListener('click', e => { const g = e.target.closest('g.fr'); if (g) zoom(g); });
});
)";

const std::string_view flame_style = R"(figure.flame { margin: 1em 0; }
svg.flame { width: 100%; height: auto; font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; cursor: pointer; }
svg.flame text { pointer-events: none; fill: #222; }
svg.flame g.fr:hover rect { stroke: #333; stroke-width: 0.5; }
svg.flame g.above rect { opacity: 0.5; }
table.functions td.fn { text-align: left; max-width: 60em; overflow-wrap: anywhere; }
)";

}  // namespace tare::report::detail
