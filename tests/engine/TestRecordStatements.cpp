// How the store writer writes a batch (docs/performance.md "Change 4 (store)"): one multi-row
// statement per table per chunk, prepared once per connection; a request named twice in one batch
// is written once; the ledger books a request once without an index on its random id. The rows
// marked "postgresql" run the same code against a real PostgreSQL (testsupport/TestPostgres).
#include "store/AttemptsJson.h"
#include "store/Store.h"
#include "testsupport/StoreDialects.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

constexpr qint64 Base = 1'800'000'000'000;

Store::TraceRecord trace(int n, int status = 200)
{
    Store::TraceRecord t;
    t.id = QStringLiteral("req_%1").arg(n, 16, 16, QLatin1Char('0'));
    t.startedMs = Base + n;
    t.keyId = QStringLiteral("k_1");
    t.modelAsked = QStringLiteral("openai/gpt-5.2");
    t.status = status;
    t.attempts = 1;
    Store::AttemptRecord a;
    a.seq = 1;
    a.sharer = QStringLiteral("L0000000000000001");
    a.outcome = QStringLiteral("served");
    a.status = status;
    t.attemptRows = {a};
    t.session = n % 2 ? QStringLiteral("00000000000000%1").arg(n % 100, 2, 10, QLatin1Char('0')) : QString();
    t.maxOutputTokens = n % 3 ? 100 + n : -1;
    return t;
}

Store::LedgerEntry charge(const Store::TraceRecord &t, double usd)
{
    Store::LedgerEntry e;
    e.traceId = t.id;
    e.atMs = t.startedMs;
    e.day = Store::utcDay(t.startedMs);
    e.keyId = t.keyId;
    e.costUsd = usd;
    return e;
}

// Every column filled, with text a binding must carry byte for byte: accents, an emoji (a UTF-16
// surrogate pair), quotes, a backslash, a newline and a control character.
Store::TraceRecord wholeTrace()
{
    const QString odd = QStringLiteral("caf\u00e9 \U0001F600 \"q\" back\\slash\nline\u0001");
    Store::TraceRecord t = trace(42, 502);
    t.keyName = QStringLiteral("cl\u00e9 d'\u00e9quipe");
    t.client = QStringLiteral("claude-code");
    t.endpoint = QStringLiteral("/v1/messages");
    t.modelServed = QStringLiteral("anthropic/claude-sonnet-4.5");
    t.route = QStringLiteral("cheap");
    t.sharer = QStringLiteral("L0000000000000002");
    t.sharerName = odd;
    t.attempts = 2;
    t.ttfbMs = 120;
    t.durationMs = 3456;
    t.inputTokens = 9'007'199'254'740'993; // past 2^53: an integer, not a double
    t.outputTokens = 0;
    t.costUsd = 0.000123;
    t.absorbedUsd = 1.5;
    t.affinity = QStringLiteral("moved: cooling");
    t.pin = QJsonObject{{QStringLiteral("sharer"), t.sharer}, {QStringLiteral("untilMs"), Base + 600'000}, {QStringLiteral("by"), odd}};
    t.orderedBy = QStringLiteral("speed");
    t.stream = true;
    t.error = odd;
    t.session = QStringLiteral("00000000000000ff");
    t.maxOutputTokens = 4096;
    Store::AttemptRecord failed;
    failed.seq = 1;
    failed.sharer = QStringLiteral("L0000000000000001");
    failed.sharerName = odd;
    failed.provider = QStringLiteral("anthropic");
    failed.model = QStringLiteral("claude-sonnet-4.5");
    failed.target = QStringLiteral("anthropic/claude-sonnet-4.5");
    failed.status = 529;
    failed.outcome = QStringLiteral("failed_over");
    failed.reason = odd;
    failed.startedMs = Base;
    failed.ttfbMs = -1;
    failed.durationMs = 17;
    failed.quoteUsd = 0.0025;
    failed.plan = QJsonObject{{QStringLiteral("tier"), 1},
                              {QStringLiteral("weight"), 2.5},
                              {QStringLiteral("tieGroup"), QJsonArray{QStringLiteral("b\u00e9ta"), odd}},
                              {QStringLiteral("drawn"), true},
                              {QStringLiteral("health"), QJsonValue::Null}};
    Store::AttemptRecord skipped;
    skipped.seq = 2;
    skipped.sharer = QStringLiteral("L0000000000000003");
    skipped.outcome = QStringLiteral("refused");
    skipped.skip = QStringLiteral("cooldown");
    skipped.dispatched = false;
    skipped.nodeSharer = QStringLiteral("L00000000000000aa");
    skipped.nodePrice = QStringLiteral("0.5/1.5");
    skipped.quoteUsd = 1e-9;
    t.attemptRows = {failed, skipped, trace(42).attemptRows.first()};
    return t;
}

} // namespace

class TestRecordStatements : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanupTestCase() { Test::sharedPostgres().stop(); }

    // 50 requests are 32 + 16 + 2 rows: three statements per table, prepared on the first batch
    // and bound again for the second (PostgreSQL also releases the requests' reservations).
    void aBatchIsAFewStatementsPreparedOnce_data() { Test::addStoreDialects(); }
    void aBatchIsAFewStatementsPreparedOnce()
    {
        FRESH_STORE(location, "records");
        Store::Store store(location);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        const int tables = dialect == QLatin1String("postgresql") ? 3 : 2;
        for (int batch = 0; batch < 2; ++batch) {
            QList<Store::TraceRecord> traces;
            QList<Store::LedgerEntry> ledger;
            for (int i = 0; i < 50; ++i) {
                traces.append(trace(batch * 50 + i));
                ledger.append(charge(traces.last(), 0.5));
            }
            QVERIFY(store.record(traces, ledger));
            QCOMPARE(store.recordStatementsPrepared(), 3 * tables);
            QCOMPARE(store.recordStatementsExecuted(), (batch + 1) * 3 * tables);
        }
        QCOMPARE(store.traceCount({}), 100);
        QCOMPARE(store.ledger(Store::utcDay(Base)).size(), 100);
        QCOMPARE(store.spent(Store::utcDay(Base), QStringLiteral("k_1")), 50.0);
        // Every row's values landed in its own row: spot-check the rows that fill each chunk's edges.
        for (const int n : {0, 31, 32, 47, 48, 49, 50, 99}) {
            const Store::TraceRecord want = trace(n);
            const auto got = store.trace(want.id);
            QVERIFY2(got, qPrintable(want.id));
            QCOMPARE(got->startedMs, want.startedMs);
            QCOMPARE(got->session, want.session);
            QCOMPARE(got->maxOutputTokens, want.maxOutputTokens);
            QCOMPARE(got->attemptRows.size(), 1);
            QCOMPARE(got->attemptRows.first().outcome, QStringLiteral("served"));
        }
    }

    // More than one chunk of the largest size: 64 + 64 + 8 + 4 rows.
    void aLargeBatchIsChunked_data() { Test::addStoreDialects(); }
    void aLargeBatchIsChunked()
    {
        FRESH_STORE(location, "records");
        Store::Store store(location);
        QVERIFY(store.open(nullptr));
        QList<Store::TraceRecord> traces;
        QList<Store::LedgerEntry> ledger;
        for (int i = 0; i < 140; ++i) {
            traces.append(trace(i));
            ledger.append(charge(traces.last(), 0.25));
        }
        QVERIFY(store.record(traces, ledger));
        const int tables = dialect == QLatin1String("postgresql") ? 3 : 2;
        QCOMPARE(store.recordStatementsExecuted(), 4 * tables);
        QCOMPARE(store.traceCount({}), 140);
        QCOMPARE(store.spent(Store::utcDay(Base), QStringLiteral("k_1")), 35.0);
    }

    // A request twice in one batch: its trace row is the last version, its ledger booked once.
    void aRequestNamedTwiceInABatchIsWrittenOnce_data() { Test::addStoreDialects(); }
    void aRequestNamedTwiceInABatchIsWrittenOnce()
    {
        FRESH_STORE(location, "records");
        Store::Store store(location);
        QVERIFY(store.open(nullptr));
        const Store::TraceRecord first = trace(7, 502);
        const Store::TraceRecord again = trace(7, 200);
        QVERIFY(store.record({first, trace(8), again}, {charge(first, 1.0), charge(trace(8), 2.0), charge(again, 4.0)}));
        QCOMPARE(store.traceCount({}), 2);
        QCOMPARE(store.trace(first.id)->status, 200);
        QCOMPARE(store.ledger(Store::utcDay(Base)).size(), 2);
        QCOMPARE(store.spent(Store::utcDay(Base), QStringLiteral("k_1")), 3.0);
        // The same batch written again (the ledger journal replayed after a kill -9): nothing doubles.
        QVERIFY(store.record({first, trace(8), again}, {charge(first, 1.0), charge(trace(8), 2.0), charge(again, 4.0)}));
        QCOMPARE(store.traceCount({}), 2);
        QCOMPARE(store.spent(Store::utcDay(Base), QStringLiteral("k_1")), 3.0);
    }

    // A ledger journal replayed at start (a journal file serves many commits, so after a kill it
    // holds requests already in the store): the row in the store stays whole, with what the
    // journal's record does not carry (the replay seed, the output cap); a request only in the
    // journal is written and booked.
    void aReplayedJournalKeepsTheRowsInTheStore_data() { Test::addStoreDialects(); }
    void aReplayedJournalKeepsTheRowsInTheStore()
    {
        FRESH_STORE(location, "records");
        Store::Store store(location);
        QVERIFY(store.open(nullptr));
        const Store::TraceRecord whole = trace(1);
        QVERIFY(store.record({whole}, {charge(whole, 0.5)}));
        Store::TraceRecord journaled = whole;
        journaled.session.clear();
        journaled.maxOutputTokens = -1;
        const Store::TraceRecord onlyJournaled = trace(2);
        QVERIFY(store.replay({journaled, onlyJournaled}, {charge(journaled, 0.5), charge(onlyJournaled, 0.25)}));
        QCOMPARE(store.trace(whole.id)->session, whole.session);
        QCOMPARE(store.trace(whole.id)->maxOutputTokens, whole.maxOutputTokens);
        QVERIFY(store.trace(onlyJournaled.id));
        QCOMPARE(store.ledger(Store::utcDay(Base)).size(), 2);
        QCOMPARE(store.spent(Store::utcDay(Base), QStringLiteral("k_1")), 0.75);
    }

    // Every column of a trace and a ledger row reads back as it was written, on both bindings
    // (SQLite's own API on SQLite, QSqlQuery on PostgreSQL).
    void everyColumnReadsBackAsWritten_data() { Test::addStoreDialects(); }
    void everyColumnReadsBackAsWritten()
    {
        FRESH_STORE(location, "records");
        Store::Store store(location);
        QVERIFY(store.open(nullptr));
        const Store::TraceRecord want = wholeTrace();
        Store::LedgerEntry e = charge(want, 0.000123);
        e.route = want.route;
        e.target = QStringLiteral("anthropic/claude-sonnet-4.5@") + want.sharerName;
        e.sharer = want.sharer;
        e.absorbedUsd = 1.5;
        e.subscription = true;
        e.listValueUsd = 0.75;
        const Store::TraceRecord plain = trace(43); // empty texts, no session, no output cap
        QVERIFY(store.record({want, plain}, {e}));
        const auto got = store.trace(want.id);
        QVERIFY(got);
        QCOMPARE(QJsonDocument(got->toJson()).toJson(), QJsonDocument(want.toJson()).toJson());
        QCOMPARE(QJsonDocument(store.trace(plain.id)->toJson()).toJson(), QJsonDocument(plain.toJson()).toJson());
        const QList<Store::LedgerEntry> ledger = store.ledger(e.day);
        QCOMPARE(ledger.size(), 1);
        const auto fields = [](const Store::LedgerEntry &x) {
            return QVariantList{x.traceId, x.atMs, x.day, x.keyId, x.route, x.target, x.sharer, x.costUsd, x.absorbedUsd, x.subscription, x.listValueUsd};
        };
        QCOMPARE(fields(ledger.first()), fields(e));
    }

    // Text bound for one statement fills several of the binder's blocks, and a value larger than
    // a block gets its own: every value reads back whole, in its own row, batch after batch.
    void longTextsReadBackWhole_data() { Test::addStoreDialects(); }
    void longTextsReadBackWhole()
    {
        FRESH_STORE(location, "records");
        Store::Store store(location);
        QVERIFY(store.open(nullptr));
        for (int batch = 0; batch < 2; ++batch) {
            QList<Store::TraceRecord> traces;
            for (int i = 0; i < 64; ++i) {
                Store::TraceRecord t = trace(batch * 64 + i);
                t.error = QString(2000, QChar(u'\u00e9')) + QString::number(i); // two UTF-8 bytes a character
                traces.append(t);
            }
            traces[5].error = QStringLiteral("x").repeated(30'000) + QStringLiteral("\u00e9"); // 90,003 bytes reserved
            QVERIFY(store.record(traces, {}));
            for (const Store::TraceRecord &want : std::as_const(traces))
                QCOMPARE(store.trace(want.id)->error, want.error);
        }
    }

    // The attempt rows' JSON is written from the fields, without a QJsonObject per row: the bytes
    // are the ones Qt's writer gives for AttemptRecord::toJson, so every reader (and ReplayRows'
    // read by key spelling) sees what it saw before.
    // The attempt rows' JSON is RapidJSON's (docs/performance.md "Change 1 (json)"): its spelling of
    // a number may differ from Qt's (1e21 for 1e+21), so what is compared is what a reader parses,
    // value for value, against Qt's own writer for the same rows; the pin and the ledger journal's
    // JSON go through the same writer (appendJson).
    void attemptRowsReadAsQtWritesThem_data()
    {
        QTest::addColumn<QList<Store::AttemptRecord>>("rows");
        QTest::addColumn<QList<Store::AttemptRecord>>("asQtWrites"); // what Qt's writer is given for the same values
        const Store::TraceRecord whole = wholeTrace();
        QTest::newRow("none") << QList<Store::AttemptRecord>{} << QList<Store::AttemptRecord>{};
        QTest::newRow("served alone") << trace(1).attemptRows << trace(1).attemptRows;
        QTest::newRow("failed over, refused, served") << whole.attemptRows << whole.attemptRows;
        Store::AttemptRecord numbers = whole.attemptRows.first();
        numbers.quoteUsd = 3.0;
        numbers.inputTokens = 9'007'199'254'740'993;
        numbers.outputTokens = -9'223'372'036'854'775'807 - 1;
        numbers.durationMs = 9'223'372'036'854'775'807;
        numbers.plan = QJsonObject{{QStringLiteral("weight"), 1e21},
                                   {QStringLiteral("small"), -0.1},
                                   {QStringLiteral("tiny"), 5e-324},
                                   {QStringLiteral("third"), 1.0 / 3},
                                   {QStringLiteral("huge"), 1.7976931348623157e308},
                                   {QStringLiteral("big"), 123456789.25},
                                   {QStringLiteral("whole"), 9007199254740992.0},
                                   {QStringLiteral("past2^53"), 9007199254740994.0},
                                   {QStringLiteral("negative zero"), -0.0},
                                   {QStringLiteral("integer"), qint64(-42)},
                                   {QStringLiteral("large integer"), (qint64(1) << 62) + 1}};
        QTest::newRow("numbers") << QList<Store::AttemptRecord>{numbers} << QList<Store::AttemptRecord>{numbers};
        Store::AttemptRecord notFinite = numbers;
        notFinite.quoteUsd = qQNaN();
        notFinite.plan = QJsonObject{{QStringLiteral("nan"), qQNaN()}, {QStringLiteral("inf"), qInf()}, {QStringLiteral("-inf"), -qInf()}};
        QTest::newRow("NaN and infinities are null") << QList<Store::AttemptRecord>{notFinite} << QList<Store::AttemptRecord>{notFinite};
        Store::AttemptRecord controls;
        for (char16_t c = 0; c < 0x20; ++c)
            controls.reason.append(QChar(c));
        controls.reason.append(QStringLiteral("\u007f\u00a0\u2028\uffff"));
        QTest::newRow("every control character") << QList<Store::AttemptRecord>{controls} << QList<Store::AttemptRecord>{controls};
        Store::AttemptRecord text;
        text.model = QStringLiteral("\"quoted\" back\\slash /slash/ caf\u00e9 \u4e2d\u6587 \U0001F600\U0001F468\u200D\U0001F469");
        text.nodePrice = QStringLiteral("\u0000");
        text.plan = QJsonObject{{QStringLiteral("caf\u00e9 \"key\"\n"), QStringLiteral("\U0001F600")}};
        QTest::newRow("escapes, non-ASCII, emoji") << QList<Store::AttemptRecord>{text} << QList<Store::AttemptRecord>{text};
        // A lone surrogate is not text: it is stored as U+FFFD, as in every other text column
        // (UTF-8 has no spelling for it), where Qt's writer writes its six-character escape.
        Store::AttemptRecord lone = text;
        lone.reason = QStringLiteral("lone ") + QChar(0xd800) + QStringLiteral(" and ") + QChar(0xdc00) + QStringLiteral(" end") + QChar(0xd83d);
        Store::AttemptRecord replaced = text;
        replaced.reason = QStringLiteral("lone \ufffd and \ufffd end\ufffd");
        QTest::newRow("lone surrogates") << QList<Store::AttemptRecord>{lone} << QList<Store::AttemptRecord>{replaced};
        Store::AttemptRecord nested = whole.attemptRows.first();
        nested.plan = QJsonObject{
            {QStringLiteral("empty object"), QJsonObject{}},
            {QStringLiteral("empty array"), QJsonArray{}},
            {QStringLiteral("null"), QJsonValue::Null},
            {QStringLiteral("flags"), QJsonArray{true, false, QJsonValue::Null, 1, 2.5, QStringLiteral("x")}},
            {QStringLiteral("facts"), QJsonObject{{QStringLiteral("tier"), 1},
                                                  {QStringLiteral("by"), QJsonArray{QJsonObject{{QStringLiteral("price"), 0.000125}},
                                                                                    QJsonArray{QJsonArray{}}}}}}};
        QTest::newRow("nested plan facts") << QList<Store::AttemptRecord>{nested, numbers, text} << QList<Store::AttemptRecord>{nested, numbers, text};
    }
    void attemptRowsReadAsQtWritesThem()
    {
        QFETCH(QList<Store::AttemptRecord>, rows);
        QFETCH(QList<Store::AttemptRecord>, asQtWrites);
        QJsonArray qt;
        for (const Store::AttemptRecord &a : asQtWrites)
            qt.append(a.toJson());
        const QByteArray ours = Store::attemptsJson(rows);
        const QByteArray theirs = QJsonDocument(qt).toJson(QJsonDocument::Compact);
        QJsonParseError error;
        const QJsonDocument read = QJsonDocument::fromJson(ours, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + QLatin1Char(' ') + QString::fromUtf8(ours)));
        QCOMPARE(read, QJsonDocument::fromJson(theirs));
        QCOMPARE(read.toJson(QJsonDocument::Compact), theirs); // the same values, written back by Qt, are Qt's bytes

        // One value alone (a pin, a plan), appended after bytes already there.
        for (qsizetype i = 0; i < rows.size(); ++i) {
            QByteArray pin = "before:";
            Store::appendJson(pin, rows.at(i).plan);
            QVERIFY(pin.startsWith("before:"));
            const QJsonDocument plan = QJsonDocument::fromJson(pin.mid(7), &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            QCOMPARE(plan.object(), QJsonDocument::fromJson(QJsonDocument(asQtWrites.at(i).plan).toJson()).object());
        }
    }

    // Schema 9 drops the ledger's index on request ids (written at a random place for every
    // request); a store of schema 8 keeps its rows and still books a request once.
    void schemaNineDropsTheLedgerIndexOnRequestIds()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("eight.db"));
        const Store::TraceRecord t = trace(1);
        {
            Store::Store store(path);
            QVERIFY(store.open(nullptr));
            QVERIFY(store.record({t}, {charge(t, 0.5)}));
        }
        const auto indexes = [&] {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("probe"));
            d.setDatabaseName(path);
            d.open();
            QStringList names;
            {
                QSqlQuery q(d);
                q.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ledger'"));
                while (q.next())
                    names << q.value(0).toString();
            }
            d.close();
            return names;
        };
        { // back to schema 8 as a build before this change left it
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("eight"));
            d.setDatabaseName(path);
            QVERIFY(d.open());
            QVERIFY(QSqlQuery(d).exec(QStringLiteral("CREATE INDEX ledger_trace ON ledger(trace_id)")));
            QVERIFY(QSqlQuery(d).exec(QStringLiteral("PRAGMA user_version=8")));
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("eight"));
        QVERIFY(indexes().contains(QStringLiteral("ledger_trace")));
        QSqlDatabase::removeDatabase(QStringLiteral("probe"));
        Store::Store store(path);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        QCOMPARE(store.schemaVersion(), Store::Store::latestSchemaVersion());
        QVERIFY(!indexes().contains(QStringLiteral("ledger_trace")));
        QSqlDatabase::removeDatabase(QStringLiteral("probe"));
        QVERIFY(indexes().contains(QStringLiteral("ledger_day"))); // what budgets read by stays
        QSqlDatabase::removeDatabase(QStringLiteral("probe"));
        QVERIFY(store.record({t}, {charge(t, 0.5)}));
        QCOMPARE(store.ledger(Store::utcDay(Base)).size(), 1);
        QCOMPARE(store.trace(t.id)->status, 200);
    }
};

QTEST_GUILESS_MAIN(TestRecordStatements)
#include "TestRecordStatements.moc"
