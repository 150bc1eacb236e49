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
        t.attemptRows.append(a);
    }
    return t;
}

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
};

QTEST_GUILESS_MAIN(TestLedgerJournal)
#include "TestLedgerJournal.moc"
