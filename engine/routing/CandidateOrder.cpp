// Candidate ordering (docs/routing.md "Order"): tiers, price with a tie band and a weighted draw
// (seeded per session), provider.sort, quota-reset selection; then the key's speed-first and
// demoted sharers.
#include "CandidateOrder.h"

#include "catalog/Catalog.h"
#include "core/Clock.h"
#include "core/EngineSettings.h"
#include "health/FailingSharers.h"
#include "keys/ApiKey.h"
#include "keys/KeyRouting.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QRandomGenerator>

#include <optional>

#include <algorithm>

namespace Aile::Routing {

namespace {

constexpr qint64 SpeedBandMs = 500;
constexpr int SpeedSamples = 3;

// A weighted draw without replacement: each pick is proportional to its weight.
template <typename T, typename Weight> void weightedShuffle(QList<T> &items, QRandomGenerator &rng, Weight weightOf)
{
    for (qsizetype i = 0; i + 1 < items.size(); ++i) {
        double total = 0;
        for (qsizetype j = i; j < items.size(); ++j)
            total += weightOf(items.at(j));
        double x = rng.generateDouble() * total;
        qsizetype pick = items.size() - 1;
        for (qsizetype j = i; j < items.size(); ++j) {
            x -= weightOf(items.at(j));
            if (x < 0) {
                pick = j;
                break;
            }
        }
        if (pick != i)
            items.swapItemsAt(i, pick);
    }
}

} // namespace

std::optional<double> CandidateOrder::sortPrice(const Candidate &c) const
{
    const EngineSettings &st = m_s.settings;
    if (c.rates && (st.comparisonInputWeight > 0 || st.comparisonOutputWeight > 0))
        return comparisonPrice(*c.rates, st.comparisonInputWeight, st.comparisonOutputWeight);
    return c.quoteUsd;
}

void CandidateOrder::order(Target &t, const RequestFacts &facts, bool *sampled) const
{
    // A session draws the same order every time (docs/rules/tiers-quota-health.md); other requests draw at random.
    // A session's own generator is built only when there is a session: seeding one (a Mersenne
    // twister's 624 words) on every plan cost 1.9% of the engine's CPU (docs/performance.md).
    if (t.candidates.size() < 2) {
        // Nothing to order and nothing drawn (the common target of one sharer): the rest would
        // build a price table and a tie group of one for nothing.
        return;
    }
    std::optional<QRandomGenerator> seeded;
    QRandomGenerator *rng = &m_s.draw;
    if (facts.drawSeed) {
        const QByteArray h =
            QCryptographicHash::hash(QByteArray(QByteArray::number(*facts.drawSeed) + t.label().toUtf8()), QCryptographicHash::Sha256);
        rng = &seeded.emplace(quint32(quint8(h[0]) | quint8(h[1]) << 8 | quint8(h[2]) << 16 | quint32(quint8(h[3])) << 24));
    }
    const double band = qMax(0.0, m_s.settings.tieBandPercent) / 100.0;
    QHash<QString, std::optional<double>> price;
    for (const Candidate &c : t.candidates)
        price.insert(c.handle, sortPrice(c));
    // provider.sort latency/throughput (docs/routing.md "Order"): the measured metric, lower is better.
    const bool bySpeed = facts.sort == QLatin1String("latency") || facts.sort == QLatin1String("throughput");
    auto metric = [&](const Candidate &c) -> std::optional<double> {
        if (facts.sort == QLatin1String("latency"))
            return c.ttfbSamples >= m_s.settings.sortMinSamples ? std::optional<double>(c.ttfbMs) : std::nullopt;
        if (facts.sort == QLatin1String("throughput"))
            return c.throughputSamples >= m_s.settings.sortMinSamples ? std::optional<double>(-c.throughput) : std::nullopt;
        return std::nullopt;
    };
    // Dead keys and Degraded sharers after every other candidate; then priority tiers, higher
    // first (docs/rules/tiers-quota-health.md); then price, un-quotable last, never first (or the sort the body asked for).
    std::stable_sort(t.candidates.begin(), t.candidates.end(), [&](const Candidate &a, const Candidate &b) {
        if (a.deadKey != b.deadKey)
            return !a.deadKey;
        if (a.degraded != b.degraded)
            return !a.degraded;
        if (a.priority != b.priority)
            return a.priority > b.priority;
        if (bySpeed) {
            const auto ma = metric(a), mb = metric(b);
            if (ma.has_value() != mb.has_value())
                return ma.has_value();
            if (ma && *ma != *mb)
                return *ma < *mb;
        }
        const auto pa = price.value(a.handle), pb = price.value(b.handle);
        if (pa.has_value() != pb.has_value())
            return pa.has_value();
        if (pa && *pa != *pb)
            return *pa < *pb;
        return false;
    });
    if (!facts.sort.isEmpty()) {
        // With a sort, weights no longer split traffic: the order is strict; equal ones keep the
        // tested-first rule and then the configuration's order.
        std::stable_sort(t.candidates.begin(), t.candidates.end(), [&](const Candidate &a, const Candidate &b) {
            if (a.deadKey != b.deadKey || a.degraded != b.degraded || a.priority != b.priority)
                return false;
            if (bySpeed && metric(a) != metric(b))
                return false;
            if (price.value(a.handle) != price.value(b.handle))
                return false;
            return a.tested && !b.tested;
        });
        return;
    }
    const bool quotaReset = m_s.config.value(QLatin1String("selection")).toString() == QLatin1String("quota-reset");
    QList<Candidate> out;
    qsizetype i = 0;
    while (i < t.candidates.size()) {
        // A tie group: the same price (within the tie band), tier and standing.
        const Candidate &first = t.candidates.at(i);
        const std::optional<double> firstPrice = price.value(first.handle);
        qsizetype j = i + 1;
        while (j < t.candidates.size()) {
            const Candidate &c = t.candidates.at(j);
            const std::optional<double> p = price.value(c.handle);
            if (c.deadKey != first.deadKey || c.degraded != first.degraded || c.priority != first.priority || p.has_value() != firstPrice.has_value())
                break;
            if (firstPrice && *p > *firstPrice * (1.0 + band) && *p != *firstPrice)
                break;
            ++j;
        }
        QList<Candidate> resetting, tested, untested;
        for (qsizetype k = i; k < j; ++k) {
            const Candidate &c = t.candidates.at(k);
            // router.selection = quota-reset: subscriptions with a fresh snapshot first, soonest
            // reset of their allowance first; the rest in their weighted order (docs/rules/tiers-quota-health.md).
            if (quotaReset && c.allowanceResetMs)
                resetting.append(c);
            else
                (c.tested ? tested : untested).append(c);
        }
        std::stable_sort(resetting.begin(), resetting.end(),
                         [](const Candidate &a, const Candidate &b) { return *a.allowanceResetMs < *b.allowanceResetMs; });
        auto weightOf = [](const Candidate &c) { return double(c.weight) * c.health; };
        if (tested.size() > 1 || untested.size() > 1)
            *sampled = true;
        weightedShuffle(tested, *rng, weightOf);
        weightedShuffle(untested, *rng, weightOf);
        const qsizetype groupStart = out.size();
        out += resetting;
        out += tested;
        out += untested;
        for (qsizetype k = groupStart + 1; k < out.size(); ++k)
            out[k].tiedWithPrevious = true;
        i = j;
    }
    t.candidates = out;
}

void CandidateOrder::leverOrder(Target &t, const RequestFacts &facts, bool *bySpeed) const
{
    if (!facts.key || t.candidates.size() < 2)
        return;
    const Keys::KeyRouting &key = facts.keyRouting();
    const qint64 now = m_s.clock.nowMs();
    bool anyDemoted = false;
    if (key.demoteFailing) {
        for (Candidate &c : t.candidates) {
            c.demoted = m_s.failing.demoted(facts.key->id, c.provider, c.handle, now);
            anyDemoted = anyDemoted || c.demoted;
        }
    }
    const Catalog::ProviderInfo *provider = m_s.catalog.provider(t.provider);
    const bool speed = facts.prefersSpeed() && Wire::isChat(facts.endpoint) && provider && !provider->selfHosted;
    if (!speed && !anyDemoted)
        return;
    // Speed first: time to first token in 500 ms bands, price (the drawn order) within a band; a
    // sharer with fewer than three recent samples reads as middling (the median band).
    QHash<QString, qint64> band;
    if (speed) {
        QList<qint64> measured;
        for (const Candidate &c : t.candidates)
            if (c.ttfbSamples >= SpeedSamples && c.ttfbMs >= 0)
                measured << qint64(c.ttfbMs) / SpeedBandMs;
        std::sort(measured.begin(), measured.end());
        const qint64 middling = measured.isEmpty() ? 0 : measured.at(measured.size() / 2);
        for (const Candidate &c : t.candidates)
            band.insert(c.handle, c.ttfbSamples >= SpeedSamples && c.ttfbMs >= 0 ? qint64(c.ttfbMs) / SpeedBandMs : middling);
        *bySpeed = true;
    }
    // Dead keys, then demoted, then Degraded sharers after every other one; priority tiers still
    // come before speed (SPEC §5.4).
    auto rank = [](const Candidate &c) { return c.deadKey ? 3 : c.demoted ? 2 : c.degraded ? 1 : 0; };
    std::stable_sort(t.candidates.begin(), t.candidates.end(), [&](const Candidate &a, const Candidate &b) {
        if (rank(a) != rank(b))
            return rank(a) < rank(b);
        if (a.priority != b.priority)
            return a.priority > b.priority;
        return band.value(a.handle) < band.value(b.handle);
    });
    for (qsizetype i = 0; i < t.candidates.size(); ++i)
        t.candidates[i].tiedWithPrevious = false;
}

} // namespace Aile::Routing
