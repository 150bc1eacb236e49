#include "TraceColumns.h"

#include "common/Format.h"

#include <QtCore/QDateTime>

namespace Aile::Ui {

QString TraceColumns::title(int column)
{
    switch (column) {
    case Time: return tr("Time");
    case Key: return tr("Key");
    case Tool: return tr("Tool");
    case ModelAsked: return tr("Model asked");
    case ModelServed: return tr("Model served");
    case Route: return tr("Route");
    case Sharer: return tr("Sharer");
    case Status: return tr("Status");
    case Attempts: return tr("Attempts");
    case Ttft: return tr("First token");
    case Duration: return tr("Duration");
    case TokensIn: return tr("Tokens in");
    case TokensOut: return tr("Tokens out");
    case Cost: return tr("Cost");
    case Affinity: return tr("Affinity");
    }
    return {};
}

QString TraceColumns::display(const Store::TraceRecord &t, int column, qint64 nowMs)
{
    switch (column) {
    case Time: return Format::time(t.startedMs, nowMs);
    case Key: return t.keyName.isEmpty() ? t.keyId : t.keyName;
    case Tool: return Format::client(t.client);
    case ModelAsked: return t.modelAsked;
    case ModelServed: return t.modelServed;
    case Route: return t.route;
    case Sharer: return t.sharerName.isEmpty() ? t.sharer : t.sharerName;
    case Status: return Format::status(t.status);
    case Attempts: return QString::number(t.attempts);
    case Ttft: return Format::duration(t.ttfbMs);
    case Duration: return Format::duration(t.durationMs);
    case TokensIn: return Format::tokens(t.inputTokens);
    case TokensOut: return Format::tokens(t.outputTokens);
    case Cost: return Format::money(t.costUsd);
    case Affinity: return Format::affinity(t.affinity);
    }
    return {};
}

QString TraceColumns::csvHeader(int column)
{
    // Stable machine names: a spreadsheet or a script reads these, whatever the UI language.
    static const char *const names[] = {"time",     "key",     "tool",        "model_asked", "model_served", "route",    "sharer",  "status",
                                        "attempts", "ttft_ms", "duration_ms", "tokens_in",   "tokens_out",   "cost_usd", "affinity"};
    return column >= 0 && column < Count ? QLatin1String(names[column]) : QString();
}

QString TraceColumns::csvValue(const Store::TraceRecord &t, int column)
{
    auto count = [](qint64 v) { return v < 0 ? QString() : QString::number(v); };
    switch (column) {
    case Time: return QDateTime::fromMSecsSinceEpoch(t.startedMs, Qt::UTC).toString(Qt::ISODateWithMs);
    case Key: return t.keyName.isEmpty() ? t.keyId : t.keyName;
    case Tool: return t.client;
    case ModelAsked: return t.modelAsked;
    case ModelServed: return t.modelServed;
    case Route: return t.route;
    case Sharer: return t.sharerName.isEmpty() ? t.sharer : t.sharerName;
    case Status: return QString::number(t.status);
    case Attempts: return QString::number(t.attempts);
    case Ttft: return count(t.ttfbMs);
    case Duration: return QString::number(t.durationMs);
    case TokensIn: return count(t.inputTokens);
    case TokensOut: return count(t.outputTokens);
    case Cost: return QString::number(t.costUsd, 'f', 6);
    case Affinity: return t.affinity;
    }
    return {};
}

bool TraceColumns::isNumeric(int column)
{
    switch (column) {
    case Status:
    case Attempts:
    case Ttft:
    case Duration:
    case TokensIn:
    case TokensOut:
    case Cost: return true;
    default: return false;
    }
}

} // namespace Aile::Ui
