#include "AccessLog.h"
#include "Logging.h"

#include <algorithm>

// Off unless a log is set up (Log::install: aile serve, the desktop app), so tests and embedders
// running many requests do not print a line for each.
Q_LOGGING_CATEGORY(lcAccess, "aile.access", QtWarningMsg)

namespace Aile::Log {

namespace {

// What a bare logfmt value may not hold: a space, a quote, '=', a backslash, a control character.
// ASCII, nearly every character of a log line, is decided without Unicode's tables.
bool breaksAWord(QChar c)
{
    const char16_t u = c.unicode();
    if (u < 0x80)
        return u <= 0x20 || u == 0x7f || u == u'"' || u == u'=' || u == u'\\';
    return c.isSpace() || c.category() == QChar::Other_Control;
}

} // namespace

QString logfmtValue(const QString &value)
{
    if (!value.isEmpty() && std::none_of(value.cbegin(), value.cend(), breaksAWord))
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
    // One pass over the pattern (a chain of .arg() calls would scan and copy the line once per call).
    return QStringLiteral("id=%1 key=%2 endpoint=%3 asked=%4 served=%5 sharer=%6 status=%7 attempts=%8 ms=%9 cost=%10")
        .arg(orDash(t.id), orDash(t.keyName), orDash(t.endpoint), orDash(t.modelAsked), orDash(t.modelServed),
             orDash(t.sharerName.isEmpty() ? t.sharer : t.sharerName), QString::number(t.status), QString::number(t.attempts),
             QString::number(t.durationMs), QString::number(t.costUsd, 'f', 6));
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
