#include "SubscriptionWatch.h"

#include "common/Format.h"
#include "common/ManagementClient.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtCore/QTimer>

#include <algorithm>

namespace Aile::Ui {

namespace {

qint64 resetOf(const QJsonObject &w)
{
    const QDateTime at = QDateTime::fromString(w.value(QLatin1String("resetsAt")).toString(), Qt::ISODate);
    return at.isValid() ? at.toMSecsSinceEpoch() : 0;
}

bool isSubscriptionWindow(const QJsonObject &w)
{
    return w.value(QLatin1String("kind")).toString() == QLatin1String("subscription");
}

// Used up now: the provider said so and the reset it gave is still ahead (or unknown).
bool spent(const QJsonObject &w, qint64 nowMs)
{
    const qint64 reset = resetOf(w);
    return w.value(QLatin1String("exhausted")).toBool() && (reset == 0 || reset > nowMs);
}

// What the row charges: its prices for one model's listing, else its price sheet.
QString priceOf(const QJsonObject &row)
{
    const QJsonValue in = row.value(QLatin1String("inputPrice")), out = row.value(QLatin1String("outputPrice"));
    if (in.isDouble() && out.isDouble())
        return SubscriptionWatch::tr("$%1 in / $%2 out per Mtok").arg(in.toDouble(), 0, 'f', 2).arg(out.toDouble(), 0, 'f', 2);
    const QJsonObject price = row.value(QLatin1String("price")).toObject();
    if (price.contains(QLatin1String("percentOfList")))
        return SubscriptionWatch::tr("%1% of list price").arg(price.value(QLatin1String("percentOfList")).toDouble());
    return price.contains(QLatin1String("models")) ? SubscriptionWatch::tr("its own prices") : SubscriptionWatch::tr("list price");
}

} // namespace

QString resetsIn(qint64 resetMs, qint64 nowMs)
{
    const qint64 left = resetMs - nowMs;
    if (left <= 0)
        return SubscriptionWatch::tr("now");
    const qint64 minutes = (left + 59'999) / 60'000;
    if (minutes < 60)
        return SubscriptionWatch::tr("in %1 min").arg(minutes);
    const qint64 hours = minutes / 60;
    if (hours < 24)
        return SubscriptionWatch::tr("in %1 h %2 min").arg(hours).arg(minutes % 60);
    return SubscriptionWatch::tr("in %1 d %2 h").arg(hours / 24).arg(hours % 24);
}

SubscriptionWatch::SubscriptionWatch(QObject *parent) : QObject(parent), m_timer(new QTimer(this))
{
    m_timer->setInterval(60 * 1000);
    connect(m_timer, &QTimer::timeout, this, &SubscriptionWatch::refresh);
}

void SubscriptionWatch::setClient(ManagementClient *client)
{
    m_client = client;
    m_timer->start();
}

void SubscriptionWatch::refresh()
{
    if (!m_client)
        return;
    m_client->sharers({}, this, [this](const Reply<Api::SharerListing> &reply) {
        if (reply.ok())
            noteListing(reply.value.toJson().value(QLatin1String("data")).toArray(), QDateTime::currentMSecsSinceEpoch());
    });
}

QString SubscriptionWatch::nextFor(const QJsonArray &rows, const QString &provider, qint64 nowMs, const QString &except) const
{
    // The listing without a model is by handle: the higher tier goes first, as requests do.
    QList<QJsonObject> ordered;
    for (const QJsonValue &v : rows)
        ordered.append(v.toObject());
    std::stable_sort(ordered.begin(), ordered.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QLatin1String("priority")).toInt() > b.value(QLatin1String("priority")).toInt();
    });
    for (const QJsonObject &row : ordered) {
        if (row.value(QLatin1String("provider")).toString() != provider || row.value(QLatin1String("handle")).toString() == except
            || row.value(QLatin1String("blocked")).toBool())
            continue;
        bool out = false;
        for (const QJsonValue &w : row.value(QLatin1String("quota")).toArray())
            out = out || (isSubscriptionWindow(w.toObject()) && spent(w.toObject(), nowMs));
        if (out)
            continue;
        const QString name = row.value(QLatin1String("name")).toString();
        if (row.value(QLatin1String("kind")).toString() == QLatin1String("subscription"))
            return tr("%1 (subscription)").arg(name); // the plan is paid for: no per-request price
        const QString price = priceOf(row);
        return price.isEmpty() ? name : tr("%1 (%2)").arg(name, price);
    }
    return {};
}

void SubscriptionWatch::noteListing(const QJsonArray &rows, qint64 nowMs)
{
    QStringList lines;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        const QString handle = row.value(QLatin1String("handle")).toString();
        const QString name = row.value(QLatin1String("name")).toString();
        const QString provider = row.value(QLatin1String("provider")).toString();
        QStringList parts;
        for (const QJsonValue &wv : row.value(QLatin1String("quota")).toArray()) {
            const QJsonObject w = wv.toObject();
            if (!isSubscriptionWindow(w))
                continue;
            const QString window = w.value(QLatin1String("name")).toString();
            const qint64 reset = resetOf(w);
            const bool out = spent(w, nowMs);
            const double used = w.value(QLatin1String("used")).toDouble(-1);
            parts << (out                          ? tr("%1 used up, back %2").arg(window, resetsIn(reset, nowMs))
                      : used >= 0 && reset > nowMs ? tr("%1 %2%, resets %3").arg(window).arg(qRound(used * 100)).arg(resetsIn(reset, nowMs))
                      : used >= 0                  ? tr("%1 %2%").arg(window).arg(qRound(used * 100))
                                                   : window);
            WindowState &state = m_windows[handle + QLatin1Char('\n') + window];
            if (out && !state.exhausted) {
                const QString next = nextFor(rows, provider, nowMs, handle);
                const QString until = reset > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(reset).time(), QLocale::ShortFormat) : QString();
                say(tr("%1 is used up").arg(name),
                    (until.isEmpty() ? tr("Its %1 window is used up.").arg(window) : tr("Its %1 window is used up until %2.").arg(window, until))
                        + QLatin1Char(' ')
                        + (next.isEmpty() ? tr("No other sharer of %1 can take its requests; they are refused until it resets.").arg(provider)
                                          : tr("Requests move to %1 until it resets.").arg(next)));
            } else if (!out && state.exhausted) {
                say(tr("%1 is back").arg(name), tr("Its %1 window reset; requests go to it again.").arg(window));
                state.warned = false;
            } else if (!out && used >= WarnAt && !state.warned) {
                say(tr("%1: %2 window at %3%").arg(name, window).arg(qRound(used * 100)),
                    reset > nowMs ? tr("It resets %1.").arg(resetsIn(reset, nowMs)) : tr("When it runs out, requests move to the next sharer."));
                state.warned = true;
            } else if (used >= 0 && used < WarnAt) {
                state.warned = false; // a new window
            }
            state.exhausted = out;
            state.resetMs = reset;
        }
        if (!parts.isEmpty())
            lines << tr("%1 — %2").arg(name, parts.join(QStringLiteral(" · ")));
    }
    for (const auto &[tool, provider] : {std::pair{tr("Claude Code"), QStringLiteral("claude")}, std::pair{tr("Codex"), QStringLiteral("codex")}}) {
        const QString next = nextFor(rows, provider, nowMs);
        if (!next.isEmpty())
            lines << tr("%1's next request → %2").arg(tool, next);
    }
    if (lines != m_lines) {
        m_lines = lines;
        Q_EMIT linesChanged(m_lines);
    }
}

void SubscriptionWatch::say(const QString &title, const QString &message)
{
    if (m_notifier)
        m_notifier(title, message);
    Q_EMIT notified(title, message);
}

} // namespace Aile::Ui
