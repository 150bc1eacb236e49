#include "AccessLog.h"
#include "Logging.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

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

// The ASCII characters a bare logfmt value may hold (breaksAWord's complement below 0x80).
constexpr std::array<bool, 128> PlainAscii = [] {
    std::array<bool, 128> plain{};
    for (int c = 0x21; c < 0x7f; ++c)
        plain[size_t(c)] = c != '"' && c != '=' && c != '\\';
    return plain;
}();

// A field's value as logfmtValue writes it ("-" when empty), in UTF-8. A plain ASCII word, nearly
// every value, is copied byte for byte as it is checked; anything else goes through logfmtValue.
void appendValue(QByteArray &out, const QString &value)
{
    if (value.isEmpty()) {
        out += '-';
        return;
    }
    const char16_t *units = reinterpret_cast<const char16_t *>(value.constData());
    const qsizetype n = value.size();
    const qsizetype at = out.size();
    out.resize(at + n);
    char *to = out.data() + at;
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = units[i];
        if (u >= 0x80 || !PlainAscii[u]) {
            out.resize(at);
            out += logfmtValue(value).toUtf8();
            return;
        }
        to[i] = char(u);
    }
}

template <typename... Format> void appendNumber(QByteArray &out, auto value, Format... format)
{
    char digits[330]; // the longest double in fixed notation with six decimals
    const auto [end, error] = std::to_chars(digits, digits + sizeof digits, value, format...);
    out.append(digits, error == std::errc() ? end - digits : 0);
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

void appendAccessLine(QByteArray &out, const Store::TraceRecord &t)
{
    // Written field by field in UTF-8: the line was a QString built by arg() and then converted,
    // about 5 µs of the engine thread per line (docs/performance.md "Change 13 (record)").
    const std::pair<const char *, const QString *> words[] = {
        {"id=", &t.id},
        {" key=", &t.keyName},
        {" endpoint=", &t.endpoint},
        {" asked=", &t.modelAsked},
        {" served=", &t.modelServed},
        {" sharer=", t.sharerName.isEmpty() ? &t.sharer : &t.sharerName},
    };
    for (const auto &[name, value] : words) {
        out += name;
        appendValue(out, *value);
    }
    const std::pair<const char *, qint64> numbers[] = {{" status=", t.status}, {" attempts=", t.attempts}, {" ms=", t.durationMs}};
    for (const auto &[name, value] : numbers) {
        out += name;
        appendNumber(out, value);
    }
    out += " cost=";
    appendNumber(out, t.costUsd, std::chars_format::fixed, 6);
}

QString accessLine(const Store::TraceRecord &t)
{
    QByteArray line;
    appendAccessLine(line, t);
    return QString::fromUtf8(line);
}

void logAccess(std::span<const Store::TraceRecord> traces)
{
    if (traces.empty() || !lcAccess().isInfoEnabled())
        return;
    const bool written = writeTextLines(QtInfoMsg, lcAccess().categoryName(), [traces](QByteArray &out, const QByteArray &prefix) {
        out.reserve(qsizetype(traces.size()) * (prefix.size() + 200));
        for (const Store::TraceRecord &t : traces) {
            out += prefix;
            appendAccessLine(out, t);
            out += '\n';
        }
    });
    if (written)
        return;
    QStringList lines;
    lines.reserve(qsizetype(traces.size()));
    for (const Store::TraceRecord &t : traces)
        lines << accessLine(t);
    if (writeLines(QtInfoMsg, lcAccess().categoryName(), lines))
        return;
    for (const QString &line : std::as_const(lines))
        qCInfo(lcAccess).noquote() << line;
}

void logAccess(const QList<Store::TraceRecord> &traces)
{
    logAccess(std::span<const Store::TraceRecord>(traces.constData(), size_t(traces.size())));
}

} // namespace Aile::Log
