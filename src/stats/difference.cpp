#include "stats/difference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace tare::stats {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// The continued fraction of I_x(a, b) (Numerical Recipes 3rd ed., eq. 6.4.5, `betacf`),
// evaluated by the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double x, double a, double b) {
    constexpr double tiny = 1e-300;
    constexpr double eps = 1e-15;
    const double qab = a + b;
    const double qap = a + 1;
    const double qam = a - 1;
    double c = 1;
    double d = 1 - qab * x / qap;
    if (std::fabs(d) < tiny) {
        d = tiny;
    }
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 10000; ++m) {
        const double md = m;
        const double m2 = 2 * md;
        double aa = md * (b - md) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        d = std::fabs(d) < tiny ? tiny : d;
        c = 1 + aa / c;
        c = std::fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        h *= d * c;
        aa = -(a + md) * (qab + md) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        d = std::fabs(d) < tiny ? tiny : d;
        c = 1 + aa / c;
        c = std::fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < eps) {
            break;
        }
    }
    return h;
}

// Two-sided tail probability P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2), computed directly so
// that tiny p-values do not cancel to 0 against 1.
double two_sided_p(double t, double df) {
    if (!std::isfinite(t)) {
        return std::isnan(t) ? 1.0 : 0.0;
    }
    return incomplete_beta(df / (df + t * t), df / 2, 0.5);
}

}  // namespace

double incomplete_beta(double x, double a, double b) {
    if (!(x > 0)) {
        return 0;
    }
    if (!(x < 1)) {
        return 1;
    }
    // The prefactor x^a (1-x)^b / (a B(a, b)) in logs, then the fraction on whichever side
    // converges (symmetry I_x(a, b) = 1 - I_{1-x}(b, a)).
    const double log_front =
        std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    const double front = std::exp(log_front);
    if (x < (a + 1) / (a + b + 2)) {
        return front * beta_continued_fraction(x, a, b) / a;
    }
    return 1 - front * beta_continued_fraction(1 - x, b, a) / b;
}

double student_t_cdf(double t, double df) {
    if (std::isnan(t) || !(df > 0)) {
        return not_a_number;
    }
    if (std::isinf(t)) {
        return t > 0 ? 1.0 : 0.0;
    }
    const double tail = 0.5 * incomplete_beta(df / (df + t * t), df / 2, 0.5);  // P(T > |t|)
    return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
    if (std::isnan(p) || p < 0 || p > 1 || !(df > 0)) {
        return not_a_number;
    }
    if (p == 0) {
        return -infinity;
    }
    if (p == 1) {
        return infinity;
    }
    if (p == 0.5) {
        return 0;
    }
    // Closed forms (e.g. Hill 1970, CACM 13, algorithm 396, which special-cases them too).
    if (df == 1) {
        return std::tan(std::numbers::pi * (p - 0.5));
    }
    if (df == 2) {
        return (2 * p - 1) / std::sqrt(2 * p * (1 - p));
    }
    // Symmetry, then bracket and bisect: the cdf is monotone, so bisection cannot fail, and 200
    // halvings of a bracket below 2^64 reach the resolution of a double. Cost is irrelevant
    // next to running processes (a few microseconds per call).
    const bool upper = p > 0.5;
    const double q = upper ? p : 1 - p;
    double low = 0;
    double high = 1;
    while (student_t_cdf(high, df) < q && high < 1e300) {
        low = high;
        high *= 2;
    }
    for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
        const double mid = 0.5 * (low + high);
        (student_t_cdf(mid, df) < q ? low : high) = mid;
    }
    const double t = 0.5 * (low + high);
    return upper ? t : -t;
}

std::optional<interval> student_mean_interval(std::span<const double> xs, double confidence) {
    if (xs.size() < 2 || !(confidence > 0 && confidence < 1)) {
        return std::nullopt;
    }
    double sum = 0;
    for (double x : xs) {
        if (!std::isfinite(x)) {
            return std::nullopt;
        }
        sum += x;
    }
    const double n = static_cast<double>(xs.size());
    const double m = sum / n;
    double ss = 0;  // centred sum of squares (two-pass: no cancellation for large means)
    for (double x : xs) {
        ss += (x - m) * (x - m);
    }
    const double se = std::sqrt(ss / (n - 1) / n);
    const double half = student_t_quantile(0.5 + confidence / 2, n - 1) * se;
    return interval{m - half, m + half};
}

std::optional<paired_change> paired_log_change(std::span<const double> base, std::span<const double> head,
                                               double confidence) {
    const std::size_t n = std::min(base.size(), head.size());
    std::vector<double> logs;
    logs.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!(base[i] > 0 && head[i] > 0 && std::isfinite(base[i]) && std::isfinite(head[i]))) {
            return std::nullopt;
        }
        logs.push_back(std::log(head[i] / base[i]));
    }
    return log_ratio_change(logs, confidence);
}

std::optional<paired_change> log_ratio_change(std::span<const double> logs, double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
        confidence = 0.95;
    }
    const std::size_t n = logs.size();
    if (n == 0 || !std::all_of(logs.begin(), logs.end(), [](double x) { return std::isfinite(x); })) {
        return std::nullopt;
    }
    paired_change c;
    c.pairs = n;
    c.confidence = confidence;
    double sum = 0;
    for (double x : logs) {
        sum += x;
    }
    c.mean_log_ratio = sum / static_cast<double>(n);
    c.change_pct = 100 * std::expm1(c.mean_log_ratio);
    if (n < 2) {
        return c;  // infinite interval: no interval, p = 1
    }
    std::optional<interval> on_logs = student_mean_interval(logs, confidence);
    if (!on_logs) {
        return c;
    }
    c.interval_pct = interval{100 * std::expm1(on_logs->low), 100 * std::expm1(on_logs->high)};
    double ss = 0;
    for (double x : logs) {
        ss += (x - c.mean_log_ratio) * (x - c.mean_log_ratio);
    }
    const double df = static_cast<double>(n - 1);
    const double se = std::sqrt(ss / df / static_cast<double>(n));
    c.log_se = se;
    c.df = df;
    if (se > 0) {
        c.p_value = two_sided_p(c.mean_log_ratio / se, df);
    } else {
        c.p_value = c.mean_log_ratio == 0 ? 1.0 : 0.0;
    }
    return c;
}

std::optional<paired_change> welch_log_change(std::span<const double> base, std::span<const double> head,
                                              double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
        confidence = 0.95;
    }
    if (base.empty() || head.empty()) {
        return std::nullopt;
    }
    struct moments {
        double n = 0;
        double mean = 0;
        double var = 0;  // unbiased
    };
    auto log_moments = [](std::span<const double> xs) -> std::optional<moments> {
        moments m;
        m.n = static_cast<double>(xs.size());
        for (double x : xs) {
            if (!(x > 0 && std::isfinite(x))) {
                return std::nullopt;
            }
            m.mean += std::log(x);
        }
        m.mean /= m.n;
        for (double x : xs) {
            m.var += (std::log(x) - m.mean) * (std::log(x) - m.mean);
        }
        m.var = m.n > 1 ? m.var / (m.n - 1) : 0;
        return m;
    };
    const auto b = log_moments(base);
    const auto h = log_moments(head);
    if (!b || !h) {
        return std::nullopt;
    }
    paired_change c;
    c.pairs = std::min(base.size(), head.size());
    c.confidence = confidence;
    c.mean_log_ratio = h->mean - b->mean;
    c.change_pct = 100 * std::expm1(c.mean_log_ratio);
    if (b->n < 2 || h->n < 2) {
        return c;
    }
    const double vb = b->var / b->n;
    const double vh = h->var / h->n;
    const double se = std::sqrt(vb + vh);
    if (!(se > 0)) {
        c.interval_pct = interval{c.change_pct, c.change_pct};
        c.p_value = c.mean_log_ratio == 0 ? 1.0 : 0.0;
        return c;
    }
    const double df = (vb + vh) * (vb + vh) / (vb * vb / (b->n - 1) + vh * vh / (h->n - 1));
    c.log_se = se;
    c.df = df;
    const double half = student_t_quantile(0.5 + confidence / 2, df) * se;
    c.interval_pct =
        interval{100 * std::expm1(c.mean_log_ratio - half), 100 * std::expm1(c.mean_log_ratio + half)};
    c.p_value = two_sided_p(c.mean_log_ratio / se, df);
    return c;
}

verdict judge(const paired_change& change, double threshold_pct) {
    if (!change.interval_pct) {
        return verdict::no_change;
    }
    const double band = threshold_pct > 0 ? threshold_pct : 0.0;
    if (change.interval_pct->low > band) {
        return verdict::slower;
    }
    if (change.interval_pct->high < -band) {
        return verdict::faster;
    }
    return verdict::no_change;
}

paired_change at_level(const paired_change& change, double confidence) {
    paired_change c = change;
    if (!(confidence > 0 && confidence < 1)) {
        return c;
    }
    c.confidence = confidence;
    if (!c.interval_pct || !(c.log_se > 0) || !(c.df > 0)) {
        return c;
    }
    const double half = student_t_quantile(0.5 + confidence / 2, c.df) * c.log_se;
    c.interval_pct =
        interval{100 * std::expm1(c.mean_log_ratio - half), 100 * std::expm1(c.mean_log_ratio + half)};
    return c;
}

double band_p_value(const paired_change& change, double threshold_pct) {
    if (!change.interval_pct) {
        return 1;
    }
    const double band = std::max(threshold_pct, 0.0) / 100;
    // judge() compares the back-transformed interval with +-band: in logs, "slower" needs
    // low > log(1 + band) and "faster" high < log(1 - band).
    const double up = std::log1p(band);
    const double down = band < 1 ? std::log1p(-band) : -infinity;
    const double m = change.mean_log_ratio;
    if (!(change.log_se > 0) || !(change.df > 0)) {
        return m > up || m < down ? 0.0 : 1.0;  // no spread: the interval is the point
    }
    // At level 1 - a the interval is m +- t_{1-a/2} se; it clears `up` iff a > 2 (1 - T(z)).
    auto side = [&](double z) { return z > 0 ? two_sided_p(z, change.df) : 1.0; };
    return std::min({side((m - up) / change.log_se), side((down - m) / change.log_se), 1.0});
}

std::size_t benjamini_hochberg_count(std::span<const double> p_values, double q) {
    std::vector<double> p(p_values.begin(), p_values.end());
    std::sort(p.begin(), p.end());
    const auto m = static_cast<double>(p.size());
    std::size_t r = 0;
    for (std::size_t k = 1; k <= p.size(); ++k) {
        if (p[k - 1] <= static_cast<double>(k) * q / m) {
            r = k;
        }
    }
    return r;
}

std::vector<std::optional<paired_change>> family_changes(std::span<const paired_samples> rows, double alpha) {
    if (!(alpha > 0 && alpha < 1)) {
        alpha = 0.05;
    }
    const double m = static_cast<double>(std::max<std::size_t>(rows.size(), 1));
    const double level = 1 - alpha / m;
    std::vector<std::optional<paired_change>> out;
    out.reserve(rows.size());
    for (const paired_samples& row : rows) {
        out.push_back(paired_log_change(row.base, row.head, level));
    }
    return out;
}

}  // namespace tare::stats
