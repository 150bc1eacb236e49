#include "HealthBook.h"

#include "core/Clock.h"

#include <QtCore/QDateTime>
#include <QtCore/QLoggingCategory>

// Every change of a sharer's standing, one logfmt line each (Log::formatLine makes JSON of it).
Q_LOGGING_CATEGORY(lcHealth, "aile.health", QtWarningMsg) // on once a log is set up (Log::install)

namespace Aile::Health {

namespace {
const SharerHealth Neutral;
constexpr double Alpha = 0.2; // weight of the newest sample in the moving averages
} // namespace

qint64 parseRetryAfterMs(const QByteArray &value, qint64 nowMs)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return -1;
    bool ok = false;
    const double seconds = v.toDouble(&ok);
    if (ok)
        return seconds < 0 ? -1 : qint64(seconds * 1000);
    // An HTTP date ("Fri, 15 Jan 2027 12:01:30 GMT"); Qt reads the zone as a numeric offset.
    QString text = QString::fromLatin1(v);
    if (text.endsWith(QLatin1String(" GMT")) || text.endsWith(QLatin1String(" UTC")))
        text = text.left(text.size() - 4) + QStringLiteral(" +0000");
    const QDateTime when = QDateTime::fromString(text, Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return qMax<qint64>(0, when.toMSecsSinceEpoch() - nowMs);
}

HealthBook::HealthBook(Clock *clock) : m_clock(clock) { }

const SharerHealth &HealthBook::of(const QString &handle) const
{
    auto it = m_health.constFind(handle);
    return it == m_health.constEnd() ? Neutral : *it;
}

qint64 HealthBook::coolingUntil(const SharerHealth &h, const QString &model) const
{
    const qint64 now = m_clock->nowMs();
    qint64 until = h.cooldownUntilMs > now ? h.cooldownUntilMs : 0;
    const qint64 modelOff = h.modelOffUntil.value(model, 0);
    if (modelOff > now)
        until = qMax(until, modelOff);
    return until;
}

void HealthBook::addOutcome(SharerHealth &h, bool ok)
{
    h.successRate = h.outcomes == 0 ? (ok ? 1.0 : 0.0) : (1 - Alpha) * h.successRate + Alpha * (ok ? 1.0 : 0.0);
    ++h.outcomes;
}

void HealthBook::recordSuccess(const QString &handle, qint64 ttfbMs)
{
    SharerHealth &h = m_health[handle];
    if (h.deadKey || h.ladderStep > 0) {
        qCInfo(lcHealth).noquote()
            << QStringLiteral("sharer=%1 state=back was=%2").arg(handle, h.deadKey ? QStringLiteral("dead_key") : QStringLiteral("cooling"));
        share(SharedVerdict::Kind::Back, handle, {}, 0, {});
    }
    h.ladderStep = 0;
    h.cooldownUntilMs = 0;
    h.cooldownReason.clear();
    h.deadKey = false;
    h.deadByProbeOnly = false;
    if (ttfbMs >= 0) {
        h.ttfbMs = h.ttfbSamples == 0 ? double(ttfbMs) : (1 - Alpha) * h.ttfbMs + Alpha * double(ttfbMs);
        ++h.ttfbSamples;
    }
    addOutcome(h, true);
    m_window.record(handle, true, ttfbMs, m_clock->nowMs());
}

qint64 HealthBook::recordFailure(const QString &handle, const QString &model, Failure failure, qint64 retryAfterMs)
{
    SharerHealth &h = m_health[handle];
    const qint64 now = m_clock->nowMs();
    addOutcome(h, false);
    m_window.record(handle, false, -1, now);
    switch (failure) {
    case Failure::AuthRefused:
        if (!h.deadKey)
            qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=dead_key reason=\"the provider refused its credential\"").arg(handle);
        h.deadKey = true;
        h.deadByProbeOnly = false;
        share(SharedVerdict::Kind::DeadKey, handle, {}, 0, QStringLiteral("the provider refused its credential"));
        return 0;
    case Failure::ModelNoQuota:
        // The key has no quota for this one model: take it off this account, keep the rest.
        h.modelOffUntil.insert(model, now + MaxRetryAfterMs);
        qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=model_off model=%2 reason=\"no quota for this model\"").arg(handle, model);
        share(SharedVerdict::Kind::ModelOff, handle, model, now + MaxRetryAfterMs, QStringLiteral("no quota for this model"));
        return now + MaxRetryAfterMs;
    case Failure::CutStream:
        h.cooldownUntilMs = qMax(h.cooldownUntilMs, now + CutStreamCooldownMs);
        h.cooldownReason = QStringLiteral("cut stream");
        qCInfo(lcHealth).noquote()
            << QStringLiteral("sharer=%1 state=cooling reason=\"cut stream\" for_ms=%2").arg(handle).arg(h.cooldownUntilMs - now);
        share(SharedVerdict::Kind::Cooldown, handle, {}, h.cooldownUntilMs, h.cooldownReason);
        return h.cooldownUntilMs;
    case Failure::RateLimited:
    case Failure::ServerError:
    case Failure::Connection:
    case Failure::Timeout: break;
    }
    const int step = qMin<int>(h.ladderStep, int(std::size(Ladder)) - 1);
    const qint64 backoff = Ladder[step];
    // Positive-only jitter spreads accounts that share one upstream limit; never earlier than the ladder.
    const qint64 jitter = m_rng ? qint64(m_rng->bounded(quint32(backoff / 5 + 1))) : 0;
    qint64 until = now + backoff + jitter;
    if (retryAfterMs >= 0) {
        // The provider's own reset is honoured as stated (up to 24 h) and never jittered,
        // but no retry comes earlier than the computed backoff.
        until = qMax(now + qMin(retryAfterMs, MaxRetryAfterMs), now + backoff);
    }
    h.ladderStep = qMin(h.ladderStep + 1, int(std::size(Ladder)));
    h.cooldownUntilMs = qMax(h.cooldownUntilMs, until);
    switch (failure) {
    case Failure::RateLimited: h.cooldownReason = QStringLiteral("rate limited"); break;
    case Failure::ServerError: h.cooldownReason = QStringLiteral("server error"); break;
    case Failure::Connection: h.cooldownReason = QStringLiteral("connection failed"); break;
    default: h.cooldownReason = QStringLiteral("timed out"); break;
    }
    h.benchedForMs = h.cooldownUntilMs - now;
    qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=cooling reason=\"%2\" for_ms=%3 step=%4")
                                      .arg(handle, h.cooldownReason)
                                      .arg(h.benchedForMs)
                                      .arg(h.ladderStep);
    share(SharedVerdict::Kind::Cooldown, handle, {}, h.cooldownUntilMs, h.cooldownReason);
    return h.cooldownUntilMs;
}

void HealthBook::recordThroughput(const QString &handle, double tokensPerSecond)
{
    if (tokensPerSecond <= 0)
        return;
    SharerHealth &h = m_health[handle];
    h.throughput = h.throughputSamples == 0 ? tokensPerSecond : (1 - Alpha) * h.throughput + Alpha * tokensPerSecond;
    ++h.throughputSamples;
}

bool HealthBook::halfOpen(const SharerHealth &h) const
{
    const qint64 now = m_clock->nowMs();
    return h.ladderStep >= BreakerTrips && h.cooldownUntilMs <= now && now < h.cooldownUntilMs + h.benchedForMs;
}

void HealthBook::recordBudgetCut(const QString &handle, qint64 elapsedMs)
{
    SharerHealth &h = m_health[handle];
    // Slowness only: it loses ties, it is not benched and its success rate is untouched.
    h.ttfbMs = h.ttfbSamples == 0 ? double(elapsedMs) : (1 - Alpha) * h.ttfbMs + Alpha * double(elapsedMs);
    ++h.ttfbSamples;
}

void HealthBook::recordProbe(const QString &handle, bool answered, bool credentialRefused)
{
    SharerHealth &h = m_health[handle];
    h.probe = answered ? 1 : -1;
    h.probeAtMs = m_clock->nowMs();
    if (credentialRefused && !h.deadKey) {
        qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=dead_key reason=\"a probe was refused\"").arg(handle);
        h.deadKey = true;
        h.deadByProbeOnly = true;
    } else if (answered && h.deadKey && h.deadByProbeOnly) {
        qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=back was=dead_key reason=\"a probe passed\"").arg(handle);
        // Only a probe refused it, so a passing probe restores it.
        h.deadKey = false;
        h.deadByProbeOnly = false;
    }
}

void HealthBook::restore(const QString &handle)
{
    SharerHealth &h = m_health[handle];
    if (h.deadKey)
        qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=back was=dead_key reason=\"re-linked or a test passed\"").arg(handle);
    h.deadKey = false;
    h.deadByProbeOnly = false;
    h.modelOffUntil.clear();
}

QString HealthBook::clearCooldown(const QString &handle)
{
    const auto it = m_health.find(handle);
    if (it == m_health.end() || it->cooldownUntilMs <= m_clock->nowMs())
        return {};
    const QString was = it->cooldownReason;
    it->cooldownUntilMs = 0;
    it->cooldownReason.clear();
    it->ladderStep = 0;
    it->benchedForMs = 0;
    qCInfo(lcHealth).noquote()
        << QStringLiteral("sharer=%1 state=back was=cooling reason=\"cooldown cleared by the user (was: %2)\"").arg(handle, was);
    return was;
}

void HealthBook::share(SharedVerdict::Kind kind, const QString &handle, const QString &model, qint64 untilMs, const QString &reason)
{
    if (m_share)
        m_share(SharedVerdict{kind, handle, model, untilMs, reason});
}

void HealthBook::applyShared(const SharedVerdict &v)
{
    SharerHealth &h = m_health[v.handle];
    switch (v.kind) {
    case SharedVerdict::Kind::Cooldown:
        if (v.untilMs > h.cooldownUntilMs) {
            h.cooldownUntilMs = v.untilMs;
            h.cooldownReason = v.reason;
            h.benchedForMs = qMax<qint64>(0, v.untilMs - m_clock->nowMs());
        }
        break;
    case SharedVerdict::Kind::ModelOff: h.modelOffUntil.insert(v.model, qMax(h.modelOffUntil.value(v.model, 0), v.untilMs)); break;
    case SharedVerdict::Kind::DeadKey: h.deadKey = true; break;
    case SharedVerdict::Kind::Back:
        h.cooldownUntilMs = 0;
        h.cooldownReason.clear();
        h.ladderStep = 0;
        h.deadKey = false;
        h.deadByProbeOnly = false;
        break;
    }
    qCInfo(lcHealth).noquote() << QStringLiteral("sharer=%1 state=%2 reason=\"%3\" (learnt by another instance)")
                                      .arg(v.handle, v.kind == SharedVerdict::Kind::Back ? QStringLiteral("back") : QStringLiteral("cooling"),
                                           v.reason);
}

void HealthBook::setHeadroom(const QString &handle, double headroom)
{
    m_health[handle].headroom = qBound(0.0, headroom, 1.0);
}

double HealthBook::weight(const SharerHealth &h)
{
    double w = 1.0;
    if (h.probe < 0)
        w *= 0.25; // the credential did not answer lately
    if (h.ladderStep > 0)
        w *= 1.0 / (1.0 + h.ladderStep); // failed recently, now out of its cooldown
    if (h.headroom >= 0)
        w *= 0.25 + 0.75 * h.headroom; // little of its rate window left
    if (h.ttfbSamples >= 3)
        w *= 1.0 / (1.0 + h.ttfbMs / 10'000.0); // slow to start answering
    if (h.outcomes >= 3)
        w *= 0.1 + 0.9 * h.successRate;
    return qMax(w, 1e-6);
}

} // namespace Aile::Health
