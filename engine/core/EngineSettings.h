#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

namespace Aile {

/// Tunables with the defaults SPEC.md names. Read from the "settings" object of the
/// configuration (same names) and from the store.
struct EngineSettings
{
    int maxDials = 4;                   // dispatched dials per request
    int scanCap = 32;                   // pre-dispatch refusals looked past
    qint64 firstByteBudgetMs = 120'000; // one budget per request, squeezes later attempts
    qint64 idleTimeoutMs = 600'000;     // after the response head, rearming
    qint64 connectTimeoutMs = 12'000;   // connect + TLS, outside the budget
    qint64 holdAfterMs = 25'000;        // a streamed request without a head is committed to 200
    qint64 holdKeepaliveMs = 15'000;    // keepalive comment period on a held stream
    double tieBandPercent = 0;
    // The comparison price weights; 0 and 0 price each request by its own token estimate
    // (the quote), which is the comparison price weighted by that request's input and output.
    double comparisonInputWeight = 0;
    double comparisonOutputWeight = 0;
    // Degraded (after Available ones): a success rate under this over the last 30 minutes, with
    // at least degradedMinAttempts attempts, or a half-open breaker.
    double degradedSuccessRate = 0.8;
    int degradedMinAttempts = 10;
    int sortMinSamples = 3; // provider.sort latency/throughput: enough samples
    double affinityPriceTolerance = 1.2;
    qint64 pinTtlSeconds = 300;
    qint64 probeIntervalMs = 300'000; // a probe per sharer; never faster than once a minute
    QStringList allowedOrigins;       // browser origins allowed to call the proxy
    bool allowRemote = false;         // listening beyond loopback needs an explicit opt-in
    QStringList allowedHosts;         // Host names answered besides loopback ("aile.lan", "aile.lan:8080")

    void apply(const QJsonObject &o);
    QJsonObject toJson() const;
};

} // namespace Aile
