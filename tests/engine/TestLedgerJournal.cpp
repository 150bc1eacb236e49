// The ledger journal's record (docs/hardening.md "Durability under faults"): written on the request
// path by its own encoder, read back at start by QDataStream. Every field a record carries must
// come back as it went in, whatever its text (non-ASCII, empty, absent) and its numbers.
#include "store/LedgerJournal.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

Store::TraceRecord traceWith(const QString &text, qint64 number)
{
    Store::TraceRecord t;
    t.id = QStringLiteral("req_00000000000000a1");
    t.startedMs = 1'800'000'000'000 + number;
    t.keyId = QStringLiteral("k_1");
    t.keyName = text;
    t.client = QStringLiteral("claude-code");
    t.endpoint = QStringLiteral("/v1/messages");
    t.modelAsked = text;
    t.modelServed = QStringLiteral("anthropic/claude-sonnet-5");
    t.route = QString(); // absent
    t.sharer = QStringLiteral("L00000000000000b1");
    t.sharerName = text;
    t.status = 529;
    t.attempts = 3;
    t.ttfbMs = -1;
    t.durationMs = number;
    t.inputTokens = number * 1000;
    t.outputTokens = -1;
    t.costUsd = 0.000123456789;
    t.absorbedUsd = -0.5;
    t.affinity = QStringLiteral("moved: cooling");
    t.pin = QJsonObject{{QStringLiteral("sharer"), text}, {QStringLiteral("untilMs"), 1'800'000'000'000.0}};
    t.orderedBy = QStringLiteral("speed");
    t.stream = true;
    t.error = text;
    t.session = QStringLiteral("5f3c9a01d2e47b88");
    t.maxOutputTokens = number;
    for (int seq = 1; seq <= 2; ++seq) {
        Store::AttemptRecord a;
        a.seq = seq;
        a.sharer = QStringLiteral("L00000000000000b%1").arg(seq);
        a.sharerName = text;
        a.provider = QStringLiteral("anthropic");
        a.model = QStringLiteral("claude-sonnet-5");
        a.target = QString();
        a.status = seq == 1 ? 429 : 529;
        a.outcome = seq == 1 ? QStringLiteral("failed_over") : QStringLiteral("served");
        a.reason = text;
        a.skip = QStringLiteral("");
        a.startedMs = t.startedMs + seq;
        a.ttfbMs = seq == 1 ? -1 : 40;
        a.durationMs = 100 * seq;
        a.inputTokens = number;
        a.outputTokens = -1;
        a.quoteUsd = 1.5e-7;
        a.dispatched = seq != 1;
        if (seq == 2) { // served through a team node (docs/team.md)
            a.nodeSharer = text;
            a.nodePrice = QStringLiteral("80% of list");
        }
        t.attemptRows.append(a);
    }
    return t;
}

// A record as the previous version ("AIL2") wrote it, before the session's draw seed, the output
// cap and an attempt row's node fields were journaled: traceWith("clé", 42) with its first attempt
// row only, and one ledger row (traceId, day 2027-01-15, cost 0.5).
const char *const RecordBeforeReplayFields = "41494c32000002da00000028007200650071005f00300030003000300030003000300030003000300030003000300030"
                                             "00610031000001a3185c502a00000006006b005f0031000000060063006c00e9000000160063006c0061007500640065"
                                             "002d0063006f0064006500000018002f00760031002f006d0065007300730061006700650073000000060063006c00e9"
                                             "000000320061006e007400680072006f007000690063002f0063006c0061007500640065002d0073006f006e006e0065"
                                             "0074002d0035ffffffff00000022004c0030003000300030003000300030003000300030003000300030003000620031"
                                             "000000060063006c00e90000021100000003ffffffffffffffff000000000000002a000000000000a410ffffffffffff"
                                             "ffff3f202e85be111841bfe00000000000000000001c006d006f007600650064003a00200063006f006f006c0069006e"
                                             "0067000000297b22736861726572223a22636cc3a9222c22756e74696c4d73223a313830303030303030303030307d00"
                                             "00000a0073007000650065006401000000060063006c00e9000000010000000100000022004c00300030003000300030"
                                             "00300030003000300030003000300030003000620031000000060063006c00e9000000120061006e007400680072006f"
                                             "0070006900630000001e0063006c0061007500640065002d0073006f006e006e00650074002d0035ffffffff000001ad"
                                             "00000016006600610069006c00650064005f006f007600650072000000060063006c00e900000000000001a3185c502b"
                                             "ffffffffffffffff0000000000000064000000000000002affffffffffffffff3e8421f5f40d83760000000001000000"
                                             "28007200650071005f003000300030003000300030003000300030003000300030003000300061003100000000000000"
                                             "00000000140032003000320037002d00300031002d00310035ffffffffffffffffffffffffffffffff3fe00000000000"
                                             "000000000000000000000000000000000000";

} // namespace

class TestLedgerJournal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aRecordReadsBackFieldForField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("number");
        QTest::newRow("ascii") << QStringLiteral("work key") << qint64(42);
        QTest::newRow("accents and an emoji (a surrogate pair)") << QStringLiteral("clé d'équipe \U0001F511") << qint64(-7);
        QTest::newRow("empty") << QStringLiteral("") << qint64(0);
        QTest::newRow("absent") << QString() << qint64(1);
        QTest::newRow("large numbers") << QStringLiteral("x") << std::numeric_limits<qint64>::max() / 2000;
        // Long enough for every path of the writer's byte swap (eight units, four, then one by one).
        QTest::newRow("a long name") << QStringLiteral("\u6771\u4eac team's shared key, cl\u00e9 \U0001F511 #27, rd #3") << qint64(3); // 39 units
    }

    // The store writer appends each record to a buffer it reuses (LedgerJournal::appendLine):
    // the bytes are the record's own, wherever in the buffer it starts.
    void aRecordAppendedToABufferIsTheSameRecord()
    {
        const Store::TraceRecord t = traceWith(QStringLiteral("clé"), 42);
        Store::LedgerEntry e;
        e.traceId = t.id;
        e.costUsd = 0.5;
        QByteArray buffer = Store::LedgerJournal::line(t, {});
        const qsizetype first = buffer.size();
        Store::LedgerJournal::appendLine(buffer, t, {e});
        QCOMPARE(buffer.mid(first), Store::LedgerJournal::line(t, {e}));
        buffer.resize(0);
        Store::LedgerJournal::appendLine(buffer, t, {e});
        QCOMPARE(buffer, Store::LedgerJournal::line(t, {e}));
    }

    void aRecordReadsBackFieldForField()
    {
        QFETCH(QString, text);
        QFETCH(qint64, number);
        QTemporaryDir dir;
        const Store::TraceRecord t = traceWith(text, number);
        Store::LedgerEntry e;
        e.traceId = t.id;
        e.atMs = t.startedMs;
        e.day = QStringLiteral("2027-01-15");
        e.keyId = t.keyId;
        e.route = text;
        e.target = QStringLiteral("anthropic/claude-sonnet-5@L00000000000000b2");
        e.sharer = QStringLiteral("L00000000000000b2");
        e.costUsd = 0.25;
        e.absorbedUsd = 0.125;
        e.subscription = true;
        e.listValueUsd = 3.75;
        Store::LedgerEntry second = e;
        second.costUsd = 1e-9;
        second.subscription = false;
        {
            Store::LedgerJournal journal(dir.path());
            QVERIFY(journal.open(nullptr));
            QVERIFY(journal.append(Store::LedgerJournal::line(t, {e, second})));
            QVERIFY(journal.append(Store::LedgerJournal::line(t, {})));
        }
        QStringList files;
        const QList<Store::JournalRecord> back = Store::LedgerJournal(dir.path()).leftOver(&files);
        QCOMPARE(files.size(), 1);
        QCOMPARE(back.size(), 2);
        QCOMPARE(back[1].ledger.size(), 0);
        const Store::TraceRecord &r = back[0].trace;
        QCOMPARE(r.toJson(), t.toJson()); // every field the journal keeps, attempt rows included
        QCOMPARE(r.attemptRows.size(), 2);
        QCOMPARE(r.attemptRows[0].dispatched, false);
        QCOMPARE(r.attemptRows[1].ttfbMs, 40);
        QCOMPARE(r.pin, t.pin);
        // What a replay of the request needs (docs/replay.md), and the node an attempt went through.
        QCOMPARE(r.session, t.session);
        QCOMPARE(r.maxOutputTokens, t.maxOutputTokens);
        QCOMPARE(r.attemptRows[1].nodeSharer, text);
        QCOMPARE(r.attemptRows[1].nodePrice, QStringLiteral("80% of list"));
        QCOMPARE(back[0].ledger.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const Store::LedgerEntry &want = i == 0 ? e : second;
            const Store::LedgerEntry &got = back[0].ledger[i];
            QCOMPARE(got.traceId, want.traceId);
            QCOMPARE(got.atMs, want.atMs);
            QCOMPARE(got.day, want.day);
            QCOMPARE(got.route, want.route);
            QCOMPARE(got.target, want.target);
            QCOMPARE(got.sharer, want.sharer);
            QCOMPARE(got.costUsd, want.costUsd);
            QCOMPARE(got.absorbedUsd, want.absorbedUsd);
            QCOMPARE(got.subscription, want.subscription);
            QCOMPARE(got.listValueUsd, want.listValueUsd);
        }
    }

    // A journal left by the previous version (killed before its batch was committed) is replayed
    // after an upgrade: its records read, without the fields it did not write.
    void aRecordThePreviousVersionWroteStillReads()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("ledger-journal-000001.bin")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray old = QByteArray::fromHex(RecordBeforeReplayFields);
        QCOMPARE(old.left(4), QByteArray("AIL2"));
        f.write(old + old);
        f.close();
        const QList<Store::JournalRecord> back = Store::LedgerJournal(dir.path()).leftOver(nullptr);
        QCOMPARE(back.size(), 2);
        Store::TraceRecord want = traceWith(QStringLiteral("clé"), 42);
        want.attemptRows.removeLast();
        want.session.clear();
        want.maxOutputTokens = -1;
        const Store::TraceRecord &r = back[1].trace;
        QCOMPARE(r.toJson(), want.toJson());
        QCOMPARE(r.session, QString());
        QCOMPARE(r.maxOutputTokens, qint64(-1));
        QCOMPARE(back[1].ledger.size(), 1);
        QCOMPARE(back[1].ledger[0].traceId, want.id);
        QCOMPARE(back[1].ledger[0].day, QStringLiteral("2027-01-15"));
        QCOMPARE(back[1].ledger[0].costUsd, 0.5);
        QCOMPARE(back[1].ledger[0].subscription, false);
    }
};

QTEST_GUILESS_MAIN(TestLedgerJournal)
#include "TestLedgerJournal.moc"
