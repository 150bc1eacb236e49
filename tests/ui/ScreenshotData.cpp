#include "ScreenshotData.h"

#include "keys/ApiKey.h"
#include "store/Store.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QRandomGenerator>

namespace Aile::Test {

namespace {

struct SharerInfo
{
    const char *handle;
    const char *name;
    const char *provider;
    const char *model;
    int ttfb; // typical first byte, ms
};

const SharerInfo Sharers[] = {
    {"L3f9a0c21d4e5b607", "Work OpenAI", "openai", "gpt-5.2", 420},
    {"L8b12e4f0a9c3d576", "Team OpenAI", "openai", "gpt-5.2", 610},
    {"Lc0ffee0123456789", "Claude Max", "claude", "claude-sonnet-5", 900},
    {"L5d7e9f1a3b5c7d9e", "OpenRouter", "openrouter", "anthropic/claude-sonnet-5", 1300},
};

QString keyId(const char *plain)
{
    return Keys::ApiKey::fromPlain(QString(), QLatin1String(plain), 0).id;
}

/// The laptop key's routes: Claude Sonnet from the subscription first, then through OpenRouter; a
/// code review route on the cheaper of two providers.
QJsonArray routes()
{
    auto target = [](const char *model, const char *sharer, double budget) {
        QJsonObject t{{QStringLiteral("model"), QLatin1String(model)}};
        if (sharer)
            t.insert(QStringLiteral("sharer"), QLatin1String(sharer));
        if (budget > 0)
            t.insert(QStringLiteral("budgetUsdPerDay"), budget);
        return t;
    };
    return QJsonArray{
        QJsonObject{{QStringLiteral("name"), QStringLiteral("coding")},
                    {QStringLiteral("prefer"), QStringLiteral("speed")},
                    {QStringLiteral("ttftMs"), 8000},
                    {QStringLiteral("budgetUsdPerDay"), 25},
                    {QStringLiteral("targets"), QJsonArray{target("claude/claude-sonnet-5", "Lc0ffee0123456789", 15),
                                                           target("openrouter/anthropic/claude-sonnet-5", nullptr, 0)}}},
        QJsonObject{{QStringLiteral("name"), QStringLiteral("review")},
                    {QStringLiteral("order"), QStringLiteral("cheapest")},
                    {QStringLiteral("phaseLimits"), true},
                    {QStringLiteral("targets"), QJsonArray{target("openai/gpt-5.2", nullptr, 2), target("deepseek/deepseek-chat", nullptr, 0)}}}};
}

/// What a request's ledger entry is counted under: the route target it went through, as the
/// engine names it (provider/model, and @handle where the target is pinned: coding's first target).
QString routeTarget(const Store::TraceRecord &r)
{
    if (r.route == QLatin1String("coding") && r.sharer == QLatin1String(Sharers[2].handle))
        return QString(r.modelServed + QLatin1Char('@') + r.sharer);
    return r.modelServed;
}

} // namespace

QJsonObject ScreenshotData::config(const QString &upstream)
{
    QJsonArray sharers;
    for (const SharerInfo &s : Sharers) {
        QJsonObject o{{QStringLiteral("handle"), QLatin1String(s.handle)},
                      {QStringLiteral("name"), QLatin1String(s.name)},
                      {QStringLiteral("provider"), QLatin1String(s.provider)},
                      {QStringLiteral("baseUrl"), upstream},
                      {QStringLiteral("credential"), QStringLiteral("env:AILE_SCREENSHOT_UPSTREAM_KEY")},
                      {QStringLiteral("models"), QJsonArray{QLatin1String(s.model)}},
                      {QStringLiteral("tested"), QJsonArray{QLatin1String(s.model)}}};
        if (QLatin1String(s.provider) == QLatin1String("claude"))
            o.insert(QStringLiteral("kind"), QStringLiteral("subscription"));
        if (QLatin1String(s.name) == QLatin1String("Team OpenAI")) {
            o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 80}});
            o.insert(QStringLiteral("slots"), 4);
        }
        sharers.append(o);
    }
    // One sharer whose credential is not there, as a user would see it.
    sharers.append(QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00d1ab5e77c0ffee")},
                               {QStringLiteral("name"), QStringLiteral("Home DeepSeek")},
                               {QStringLiteral("provider"), QStringLiteral("deepseek")},
                               {QStringLiteral("baseUrl"), upstream},
                               {QStringLiteral("credential"), QStringLiteral("env:AILE_SCREENSHOT_MISSING_KEY")},
                               {QStringLiteral("models"), QJsonArray{QStringLiteral("deepseek-chat")}}});
    qputenv("AILE_SCREENSHOT_UPSTREAM_KEY", "upstream-secret");
    qunsetenv("AILE_SCREENSHOT_MISSING_KEY");
    return QJsonObject{{QStringLiteral("adminToken"), QStringLiteral("screenshot-admin-token")},
                       {QStringLiteral("sharers"), sharers},
                       {QStringLiteral("keys"),
                        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("laptop")},
                                               {QStringLiteral("key"), QLatin1String(LaptopKey)},
                                               // What the Keys page and the route dialog show for a key's named routes.
                                               {QStringLiteral("routes"), routes()}},
                                   QJsonObject{{QStringLiteral("name"), QStringLiteral("ci")},
                                               {QStringLiteral("key"), QLatin1String(CiKey)},
                                               // What the Keys page and the Routing dialog show for a key with a say.
                                               {QStringLiteral("routing"),
                                                QJsonObject{{QStringLiteral("maxPricePercent"), 100},
                                                            {QStringLiteral("minPricePercent"), 20},
                                                            {QStringLiteral("maxCostUsd"), 0.5},
                                                            {QStringLiteral("spendLimitUsdPerDay"), 20},
                                                            {QStringLiteral("neverSharers"), QJsonArray{QStringLiteral("L00d1ab5e77c0ffee")}},
                                                            {QStringLiteral("prefer"), QStringLiteral("speed")},
                                                            {QStringLiteral("demoteFailing"), true}}}}}}};
}

bool ScreenshotData::seedStore(const QString &dataDir, qint64 now, QString *error)
{
    if (!QDir().mkpath(dataDir)) {
        *error = QStringLiteral("cannot create %1").arg(dataDir);
        return false;
    }
    Store::Store store(QDir(dataDir).filePath(QStringLiteral("aile.db")));
    if (!store.open(error))
        return false;
    QRandomGenerator rng(2453); // the same pictures on every run
    const QString laptop = keyId(LaptopKey);
    const QString ci = keyId(CiKey);
    QList<Store::TraceRecord> traces;
    QList<Store::LedgerEntry> ledger;
    int n = 0;
    // An hour of traffic, a few requests a minute, a burst of rate limits half an hour ago.
    for (qint64 t = now - 59 * 60'000; t < now - 60'000; t += 9'000 + rng.bounded(12'000)) {
        const bool fromCi = rng.bounded(4) == 0;
        const SharerInfo &s = Sharers[rng.bounded(4)];
        Store::TraceRecord r;
        r.id = QStringLiteral("req_%1").arg(0x5eed0000 + ++n, 16, 16, QLatin1Char('0'));
        r.startedMs = t;
        r.keyId = fromCi ? ci : laptop;
        r.keyName = fromCi ? QStringLiteral("ci") : QStringLiteral("laptop");
        r.client = QLatin1String(s.provider) == QLatin1String("openai") ? QStringLiteral("codex") : QStringLiteral("claude-code");
        r.endpoint = r.client == QLatin1String("codex") ? QStringLiteral("/v1/responses") : QStringLiteral("/v1/messages");
        r.modelAsked = QLatin1String(s.provider) + QLatin1Char('/') + QLatin1String(s.model);
        r.modelServed = r.modelAsked;
        r.sharer = QLatin1String(s.handle);
        r.sharerName = QLatin1String(s.name);
        r.stream = true;
        r.affinity = n % 3 ? QStringLiteral("pinned") : QStringLiteral("fresh");
        const bool burst = t > now - 35 * 60'000 && t < now - 28 * 60'000;
        const int ttfb = s.ttfb + int(rng.bounded(s.ttfb / 2)) + (burst ? 700 : 0);
        Store::AttemptRecord first;
        first.seq = 1;
        first.sharer = r.sharer;
        first.sharerName = r.sharerName;
        first.provider = QLatin1String(s.provider);
        first.model = QLatin1String(s.model);
        first.startedMs = t;
        if (burst && rng.bounded(2) == 0) {
            // Rate limited, then the other OpenAI account served it.
            first.sharer = QLatin1String(Sharers[0].handle);
            first.sharerName = QLatin1String(Sharers[0].name);
            first.status = 429;
            first.outcome = QStringLiteral("failed_over");
            first.reason = QStringLiteral("429 rate_limit_exceeded: retry after 20 s");
            first.ttfbMs = 180;
            first.durationMs = 190;
            Store::AttemptRecord skipped = first;
            skipped.seq = 2;
            skipped.sharer = QLatin1String(Sharers[2].handle);
            skipped.sharerName = QLatin1String(Sharers[2].name);
            skipped.status = 0;
            skipped.outcome = QStringLiteral("refused");
            skipped.reason = QStringLiteral("cooling down for 14 s after a 529");
            skipped.dispatched = false;
            skipped.startedMs = t + 195;
            skipped.ttfbMs = -1;
            skipped.durationMs = 0;
            Store::AttemptRecord served = first;
            served.seq = 3;
            served.sharer = QLatin1String(Sharers[1].handle);
            served.sharerName = QLatin1String(Sharers[1].name);
            served.status = 200;
            served.outcome = QStringLiteral("served");
            served.reason.clear();
            served.startedMs = t + 200;
            served.ttfbMs = ttfb;
            served.durationMs = ttfb + 2400;
            r.attemptRows = {first, skipped, served};
            r.sharer = served.sharer;
            r.sharerName = served.sharerName;
            r.modelAsked = r.modelServed = QStringLiteral("openai/gpt-5.2");
            r.status = 200;
            r.ttfbMs = 200 + ttfb;
            r.durationMs = 200 + served.durationMs;
        } else if (rng.bounded(25) == 0) {
            first.status = 503;
            first.outcome = QStringLiteral("failed_over");
            first.reason = QStringLiteral("503 upstream overloaded");
            first.durationMs = 800;
            r.attemptRows = {first};
            r.status = 503;
            r.error = QStringLiteral("no sharer could serve %1 (1 tried); last failure: %2 (failed_over): 503 upstream overloaded")
                          .arg(r.modelAsked, r.sharerName);
            r.ttfbMs = -1;
            r.durationMs = 800;
        } else {
            first.status = 200;
            first.outcome = QStringLiteral("served");
            first.ttfbMs = ttfb;
            first.durationMs = ttfb + 1500 + int(rng.bounded(4000));
            r.attemptRows = {first};
            r.status = 200;
            r.ttfbMs = ttfb;
            r.durationMs = first.durationMs;
        }
        // The laptop's Claude traffic goes through its coding route, its OpenAI traffic through review.
        r.route = fromCi ? QString() : r.modelServed.startsWith(QLatin1String("openai/")) ? QStringLiteral("review") : QStringLiteral("coding");
        r.attempts = int(r.attemptRows.size());
        if (r.status == 200) {
            r.inputTokens = 2000 + rng.bounded(30000);
            r.outputTokens = 100 + rng.bounded(2000);
            r.costUsd = (r.inputTokens * 3.0 + r.outputTokens * 15.0) / 1e6;
            r.attemptRows.last().inputTokens = r.inputTokens;
            r.attemptRows.last().outputTokens = r.outputTokens;
            ledger.append({r.id, t, Store::utcDay(t), r.keyId, r.route, routeTarget(r), r.sharer, r.costUsd, 0});
        }
        traces.append(r);
    }
    // Two weeks of spend, lighter at weekends.
    for (int day = 13; day >= 1; --day) {
        const qint64 at = now - qint64(day) * 24 * 3600 * 1000;
        const double weekday = QDateTime::fromMSecsSinceEpoch(at, Qt::UTC).date().dayOfWeek() >= 6 ? 0.3 : 1.0;
        ledger.append({QStringLiteral("hist-l-%1").arg(day), at, Store::utcDay(at), laptop, QStringLiteral("coding"),
                       QStringLiteral("claude/claude-sonnet-5@") + QLatin1String(Sharers[2].handle), QLatin1String(Sharers[2].handle),
                       weekday * (2.0 + rng.bounded(3.0)), 0});
        ledger.append({QStringLiteral("hist-r-%1").arg(day), at, Store::utcDay(at), laptop, QStringLiteral("review"),
                       QStringLiteral("openai/gpt-5.2"), QLatin1String(Sharers[0].handle), weekday * rng.bounded(1.5), 0});
        ledger.append({QStringLiteral("hist-c-%1").arg(day), at, Store::utcDay(at), ci, QString(), QStringLiteral("openai/gpt-5.2"),
                       QLatin1String(Sharers[1].handle), 0.4 + rng.bounded(0.8), 0});
    }
    return store.record(traces, ledger);
}

} // namespace Aile::Test
