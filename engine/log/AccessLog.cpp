#include "AccessLog.h"
#include "Logging.h"

// Off unless a log is set up (Log::install: aile serve, the desktop app), so tests and embedders
// running many requests do not print a line for each.
Q_LOGGING_CATEGORY(lcAccess, "aile.access", QtWarningMsg)

namespace Aile::Log {

QString logfmtValue(const QString &value)
{
    bool plain = !value.isEmpty();
    for (const QChar c : value)
        if (c.isSpace() || c == QLatin1Char('"') || c == QLatin1Char('=') || c == QLatin1Char('\\') || c.category() == QChar::Other_Control)
            plain = false;
    if (plain)
        return value;
    QString out = QStringLiteral("\"");
    for (const QChar c : value) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c.category() == QChar::Other_Control ? QLatin1Char(' ') : c;
    }
    return out + QLatin1Char('"');
}

QString accessLine(const Store::TraceRecord &t)
{
    const QString dash = QStringLiteral("-");
    auto orDash = [&dash](const QString &v) { return v.isEmpty() ? dash : logfmtValue(v); };
    return QStringLiteral("id=%1 key=%2 endpoint=%3 asked=%4 served=%5 sharer=%6 status=%7 attempts=%8 ms=%9 cost=%10")
        .arg(orDash(t.id), orDash(t.keyName), orDash(t.endpoint), orDash(t.modelAsked), orDash(t.modelServed),
             orDash(t.sharerName.isEmpty() ? t.sharer : t.sharerName))
        .arg(t.status)
        .arg(t.attempts)
        .arg(t.durationMs)
        .arg(QString::number(t.costUsd, 'f', 6));
}

void logAccess(const QList<Store::TraceRecord> &traces)
{
    if (!lcAccess().isInfoEnabled())
        return;
    QStringList lines;
    lines.reserve(traces.size());
    for (const Store::TraceRecord &t : traces)
        lines << accessLine(t);
    if (writeLines(QtInfoMsg, lcAccess().categoryName(), lines))
        return;
    for (const QString &line : std::as_const(lines))
        qCInfo(lcAccess).noquote() << line;
}

} // namespace Aile::Log
