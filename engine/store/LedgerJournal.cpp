#include "LedgerJournal.h"

#include "AttemptsJson.h"

#include "StoreFiles.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QDataStream>
#include <QtCore/QJsonDocument>
#include <QtCore/QtEndian>
#include <QtCore/QLoggingCategory>

#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

namespace {

const QLatin1String Prefix("ledger-journal-");
const QLatin1String Suffix(".bin");
constexpr quint32 Magic = 0x41494c33; // "AIL3": the start of every record
// Records earlier versions wrote, still replayed after an upgrade: "AIL2" without what a replay of
// the request needs (the session's draw seed, the output cap) and the node fields of its attempt
// rows; "AIL1" also without the subscription fields of its ledger rows.
constexpr quint32 MagicBeforeReplayFields = 0x41494c32;
constexpr quint32 MagicBeforePlanValue = 0x41494c31;

// The journal is read only by this class: a binary record (QDataStream) costs a few microseconds
// where a JSON line of the same trace costs ten times that, and this runs on the request path.
// An attempt row's plan facts (Routing::planFacts) are not journaled: written here they would cost
// the request path a JSON serialisation per attempt. A row replayed from the journal has none, and
// "Why this sharer?" says what it can without them (docs/hardening.md "Durability under faults").
template <typename Stream, typename Attempt> void attemptFields(Stream &s, Attempt &a, quint32 magic = Magic)
{
    s &a.seq &a.sharer &a.sharerName &a.provider &a.model &a.target &a.status &a.outcome &a.reason &a.skip &a.startedMs &a.ttfbMs &a.durationMs &a
        .inputTokens &a.outputTokens &a.quoteUsd &a.dispatched;
    if (magic == Magic)
        s &a.nodeSharer &a.nodePrice;
}

template <typename Stream, typename Trace> void traceFields(Stream &s, Trace &t, quint32 magic = Magic)
{
    s &t.id &t.startedMs &t.keyId &t.keyName &t.client &t.endpoint &t.modelAsked &t.modelServed &t.route &t.sharer &t.sharerName &t.status &t
        .attempts &t.ttfbMs &t.durationMs &t.inputTokens &t.outputTokens &t.costUsd &t.absorbedUsd &t.affinity &t.pin &t.orderedBy &t.stream &t.error;
    if (magic == Magic)
        s &t.session &t.maxOutputTokens;
}

template <typename Stream, typename Entry> void ledgerFields(Stream &s, Entry &e, quint32 magic = Magic)
{
    s &e.traceId &e.atMs &e.day &e.keyId &e.route &e.target &e.sharer &e.costUsd &e.absorbedUsd;
    if (magic != MagicBeforePlanValue)
        s &e.subscription &e.listValueUsd;
}

// `&` reads a field in, so one list of fields serves both directions (JournalWriter writes them).
struct In
{
    QDataStream &s;
    template <typename T> In &operator&(T &v)
    {
        s >> v;
        return *this;
    }
};

// Writes what QDataStream (Qt_6_4, big-endian) would, straight into one buffer: the record is
// built on the request path, where a QDataStream costs a QBuffer (a QObject) per record and a
// virtual write per field. The reader above stays QDataStream's; test_ledger_journal reads every
// field back through it. Fields are stored through a cursor into room made ahead (the buffer's size
// is set once per record, not once per field, and cut back by finish()); text is read with
// constData(), since utf16() copies a literal's text to terminate it.
class JournalWriter
{
public:
    explicit JournalWriter(QByteArray &out) : m_out(out), m_at(out.size()) { }
    JournalWriter &operator&(qint32 v) { return put<quint32>(quint32(v)); }
    JournalWriter &operator&(quint32 v) { return put<quint32>(v); }
    JournalWriter &operator&(qint64 v) { return put<quint64>(quint64(v)); }
    JournalWriter &operator&(bool v) { return put<quint8>(v ? 1 : 0); }
    JournalWriter &operator&(double v) { return put<quint64>(std::bit_cast<quint64>(v)); }
    JournalWriter &operator&(const QString &v)
    {
        if (v.isNull())
            return put<quint32>(0xffffffffu);
        const qsizetype units = v.size();
        room(4 + units * 2);
        char *to = m_out.data() + m_at;
        qToBigEndian<quint32>(quint32(units * 2), to);
        to += 4;
        m_at += 4;
        const char *from = reinterpret_cast<const char *>(v.constData());
        qsizetype i = 0;
#if defined(__SSE2__)
        // Eight units at a time: each 16-bit lane's two bytes swapped (x86-64 always has SSE2).
        for (; i + 8 <= units; i += 8) {
            const __m128i lanes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(from + 2 * i));
            _mm_storeu_si128(reinterpret_cast<__m128i *>(to + 2 * i), _mm_or_si128(_mm_slli_epi16(lanes, 8), _mm_srli_epi16(lanes, 8)));
        }
#endif
        // Four units at a time: each 16-bit lane's two bytes swapped in one 64-bit word.
        if constexpr (std::endian::native == std::endian::little) {
            for (; i + 4 <= units; i += 4) {
                quint64 word;
                std::memcpy(&word, from + 2 * i, sizeof word);
                word = ((word & 0x00ff00ff00ff00ffULL) << 8) | ((word >> 8) & 0x00ff00ff00ff00ffULL);
                std::memcpy(to + 2 * i, &word, sizeof word);
            }
        }
        for (; i < units; ++i)
            qToBigEndian<quint16>(quint16(v.constData()[i].unicode()), to + 2 * i);
        m_at += units * 2;
        return *this;
    }
    JournalWriter &operator&(const QJsonObject &v) // QDataStream writes a QJsonObject as its compact JSON
    {
        const qsizetype at = m_at;
        put<quint32>(0); // the size, filled in once the text is there
        m_out.resize(m_at);
        appendJson(m_out, v); // compact JSON (RapidJSON's), written in place; the reader parses it with Qt
        m_at = m_out.size();
        qToBigEndian<quint32>(quint32(m_at - at - 4), m_out.data() + at);
        return *this;
    }
    /// Room for bytes more fields at once (a guess; each field still makes sure of its own).
    void room(qsizetype bytes)
    {
        if (m_at + bytes > m_out.size())
            m_out.resize(qMax(m_at + bytes, qMin<qsizetype>(2 * m_out.size(), m_at + bytes + 4096)));
    }
    /// Cuts the buffer back to what was written.
    void finish() { m_out.resize(m_at); }

private:
    template <typename T> JournalWriter &put(T v)
    {
        room(qsizetype(sizeof(T)));
        qToBigEndian<T>(v, m_out.data() + m_at);
        m_at += qsizetype(sizeof(T));
        return *this;
    }
    QByteArray &m_out;
    qsizetype m_at;
};

} // namespace

LedgerJournal::LedgerJournal(QString folder) : m_folder(std::move(folder))
{
    // Serials continue after what is there, so a file left for the next start is never reused.
    for (const QString &name : QDir(m_folder).entryList({QString(Prefix) + QLatin1Char('*') + Suffix}, QDir::Files))
        m_serial = qMax(m_serial, name.mid(Prefix.size(), name.size() - Prefix.size() - Suffix.size()).toULongLong());
}

LedgerJournal::~LedgerJournal()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_nextFd >= 0) {
        ::close(m_nextFd);
        remove(m_nextPath);
    }
    // A clean end: everything was committed (the writer drains first), so nothing is left to replay.
    if (!m_path.isEmpty() && m_written == 0)
        remove(m_path);
}

QString LedgerJournal::pathFor(quint64 serial) const
{
    return QDir(m_folder).filePath(Prefix + QStringLiteral("%1").arg(serial, 6, 10, QLatin1Char('0')) + Suffix);
}

QList<JournalRecord> LedgerJournal::leftOver(QStringList *files) const
{
    QList<JournalRecord> out;
    const QStringList names = QDir(m_folder).entryList({QString(Prefix) + QLatin1Char('*') + Suffix}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        const QString path = QDir(m_folder).filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        if (files)
            files->append(path);
        const QByteArray bytes = f.readAll();
        QDataStream in(bytes);
        in.setVersion(QDataStream::Qt_6_4);
        while (!in.atEnd()) {
            quint32 magic = 0, size = 0;
            in >> magic >> size;
            // A record cut short (the process killed inside write(2), which then never returned,
            // so that answer never left) ends what is read of this file.
            if (in.status() != QDataStream::Ok || (magic != Magic && magic != MagicBeforeReplayFields && magic != MagicBeforePlanValue)
                || size > quint32(bytes.size()))
                break;
            const QByteArray payload = bytes.mid(in.device()->pos(), size);
            if (payload.size() != qsizetype(size))
                break;
            in.skipRawData(int(size));
            QDataStream record(payload);
            record.setVersion(QDataStream::Qt_6_4);
            JournalRecord r;
            In fields{record};
            traceFields(fields, r.trace, magic);
            quint32 attempts = 0;
            record >> attempts;
            for (quint32 i = 0; i < attempts && record.status() == QDataStream::Ok; ++i) {
                AttemptRecord a;
                attemptFields(fields, a, magic);
                r.trace.attemptRows.append(a);
            }
            quint32 entries = 0;
            record >> entries;
            for (quint32 i = 0; i < entries && record.status() == QDataStream::Ok; ++i) {
                LedgerEntry e;
                ledgerFields(fields, e, magic);
                r.ledger.append(e);
            }
            if (record.status() == QDataStream::Ok && !r.trace.id.isEmpty())
                out.append(r);
        }
    }
    return out;
}

bool LedgerJournal::open(QString *error)
{
    m_path = pathFor(++m_serial);
    m_fd = openPrivateAppend(m_path);
    m_written = 0;
    if (m_fd < 0 && error)
        *error = QStringLiteral("cannot create the ledger journal %1: %2").arg(m_path, QString::fromLocal8Bit(strerror(errno)));
    return m_fd >= 0;
}

QByteArray LedgerJournal::line(const TraceRecord &trace, const QList<LedgerEntry> &ledger)
{
    QByteArray out;
    out.reserve(1024);
    appendLine(out, trace, ledger);
    return out;
}

void LedgerJournal::appendLine(QByteArray &out, const TraceRecord &trace, const QList<LedgerEntry> &ledger)
{
    const qsizetype start = out.size();
    JournalWriter fields(out);
    fields.room(2048); // a benchmark's record is about 1.2 KiB: one resize for all its fields
    fields &Magic &quint32(0); // the payload's size, filled in below
    traceFields(fields, trace);
    fields &quint32(trace.attemptRows.size());
    for (const AttemptRecord &a : trace.attemptRows)
        attemptFields(fields, a);
    fields &quint32(ledger.size());
    for (const LedgerEntry &e : ledger)
        ledgerFields(fields, e);
    fields.finish();
    qToBigEndian<quint32>(quint32(out.size() - start - 8), out.data() + start + 4);
}

bool LedgerJournal::append(const QByteArray &line)
{
    if (m_fd < 0)
        return false;
    // One write(2) of the whole line: once it returns, the line is the kernel's, and a kill of
    // this process cannot take it back. A short write (a full disk) is retried for the rest.
    qsizetype done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(m_fd, line.constData() + done, size_t(line.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    m_written += done;
    return true;
}

bool LedgerJournal::prepareNext()
{
    if (m_nextFd >= 0)
        return true;
    m_nextPath = pathFor(++m_serial);
    m_nextFd = openPrivateAppend(m_nextPath);
    return m_nextFd >= 0;
}

QString LedgerJournal::swapToNext(qint64 atLeastBytes)
{
    if (m_written == 0 || m_written < atLeastBytes || m_nextFd < 0)
        return {};
    const QString closed = m_path;
    ::close(m_fd);
    m_fd = std::exchange(m_nextFd, -1);
    m_path = std::exchange(m_nextPath, QString());
    m_written = 0;
    return closed;
}

void LedgerJournal::remove(const QString &path)
{
    if (!path.isEmpty())
        QFile::remove(path);
}

} // namespace Aile::Store
