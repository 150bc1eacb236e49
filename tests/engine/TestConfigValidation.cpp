// The configuration is checked as strictly as the API and applied whole or not at all: a typo, a
// wrong type or a value out of range in any object gets the same message from `aile serve
// --config`, `aile config check` and POST /admin/config, naming the entry and (in a file) the line
// and column; a refused file writes nothing (docs/configuration.md "Errors").
#include "keys/ApiKey.h"
#include "store/Store.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runAile(const QStringList &arguments, int timeoutMs = 15000)
{
    QProcess aile;
    aile.start(QStringLiteral(AILE_BIN), arguments);
    Run r;
    // The event loop keeps running meanwhile: `aile config import` talks to the engine of this thread.
    if (!aile.waitForStarted() || !QTest::qWaitFor([&] { return aile.state() == QProcess::NotRunning; }, timeoutMs)) {
        aile.kill();
        aile.waitForFinished();
        r.err = QStringLiteral("(still running: the engine started)");
        return r;
    }
    r.exitCode = aile.exitStatus() == QProcess::NormalExit ? aile.exitCode() : -1;
    r.out = QString::fromUtf8(aile.readAllStandardOutput());
    r.err = QString::fromUtf8(aile.readAllStandardError());
    return r;
}

// A store with something in it, so "unchanged" means something.
void seedStore(const QString &dataDir)
{
    QDir().mkpath(dataDir);
    Store::Store store(QDir(dataDir).filePath(QStringLiteral("aile.db")));
    QVERIFY(store.open(nullptr));
    auto s = Catalog::Sharer::fromJson(QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000000e1")},
                                                   {QStringLiteral("name"), QStringLiteral("kept")},
                                                   {QStringLiteral("provider"), QStringLiteral("openai")},
                                                   {QStringLiteral("priority"), 3}},
                                       nullptr);
    QVERIFY(s && store.saveSharer(*s));
    QVERIFY(store.saveKey(Keys::ApiKey::fromPlain(QStringLiteral("other"), QStringLiteral("sk-aile-other-0123456789"), 1000)));
    QVERIFY(store.saveSetting(QStringLiteral("settings"), QJsonObject{{QStringLiteral("tieBandPercent"), 1}}));
}

// Everything the configuration can write, as the store holds it.
QByteArray storeDump(const QString &dataDir)
{
    const QString path = QDir(dataDir).filePath(QStringLiteral("aile.db"));
    if (!QFile::exists(path))
        return "(no store)";
    Store::Store store(path, true);
    if (!store.open(nullptr))
        return "(unreadable)";
    QJsonArray sharers, keys, providers, models;
    for (const Catalog::Sharer &s : store.sharers())
        sharers.append(s.toJson());
    for (const Keys::ApiKey &k : store.keys())
        keys.append(k.toJson());
    for (const Catalog::ProviderInfo &p : store.customProviders())
        providers.append(p.toJson());
    for (const Catalog::ModelInfo &m : store.modelOverrides())
        models.append(m.toJson());
    QJsonObject settings;
    for (const char *name : {"settings", "routing", "adminTokenRef"})
        settings.insert(QLatin1String(name), store.setting(QLatin1String(name)));
    return QJsonDocument(QJsonObject{{QStringLiteral("sharers"), sharers},
                                     {QStringLiteral("keys"), keys},
                                     {QStringLiteral("providers"), providers},
                                     {QStringLiteral("models"), models},
                                     {QStringLiteral("settings"), settings}})
        .toJson(QJsonDocument::Compact);
}

// Line and column where `at` first occurs in text (1-based, as the messages count).
QString placeOf(const QByteArray &text, const QByteArray &at)
{
    const qsizetype offset = text.indexOf(at);
    if (offset < 0)
        return QStringLiteral("(not in the text)");
    const QByteArray before = text.left(offset);
    const qsizetype lineStart = before.lastIndexOf('\n') + 1;
    return QStringLiteral("%1:%2").arg(before.count('\n') + 1).arg(QString::fromUtf8(before.mid(lineStart)).size() + 1);
}

// "FILE:LINE:COLUMN: message" lines of an output, keyed by message, valued by "LINE:COLUMN".
QHash<QString, QString> problemLines(const QString &output, const QString &file)
{
    QHash<QString, QString> found;
    const QRegularExpression re(QStringLiteral("^(?:aile serve: )?%1:(\\d+):(\\d+): (.*)$").arg(QRegularExpression::escape(file)));
    for (const QString &line : output.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = re.match(line);
        if (m.hasMatch())
            found.insert(m.captured(3), m.captured(1) + QLatin1Char(':') + m.captured(2));
    }
    return found;
}

QByteArray admin(TestEngine &engine, const QByteArray &method, const QString &path, const QByteArray &body = {})
{
    return send(QString::fromLatin1(method), engine.baseUrl() + path, body, {{"authorization", QByteArray("Bearer ") + AdminToken}}).body;
}

const char *const Route2 = R"([{"model": "openai/gpt-5.2"}, {"model": "claude/claude-sonnet-5"}])";

} // namespace

class TestConfigValidation : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestEngine> m_engine;
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &text)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_engine = std::make_unique<TestEngine>(basicConfig(QStringLiteral("http://127.0.0.1:9")));
        QVERIFY(m_engine->start());
    }

    void aMistakeGetsTheSameMessageEverywhere_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("at"); // where the message must point: the first occurrence of this
        QTest::addColumn<QString>("says");
        const QByteArray s = R"({"sharers": [{"handle": "L0123456789abcdef", "provider": "openai", )";
        QTest::newRow("sharer: unknown field")
            << s + R"("prioritty": 5}]})" << QByteArray("\"prioritty\"")
            << R"(sharer L0123456789abcdef: "prioritty" is not a sharer field; the known ones are handle, name, provider)";
        QTest::newRow("sharer: wrong type") << s + R"("priority": "high"}]})" << QByteArray("\"priority\"")
                                            << R"(sharer L0123456789abcdef: "priority" must be a whole number from 0 to 10000, not "high")";
        QTest::newRow("sharer: out of range") << s + R"("weight": 20000}]})" << QByteArray("\"weight\"")
                                              << R"(sharer L0123456789abcdef: "weight" must be a number from 0 to 10000, not 20000)";
        const QByteArray p = R"({"providers": [{"id": "myco", )";
        QTest::newRow("provider: unknown field") << p + R"("wirez": ["chat"]}]})" << QByteArray("\"wirez\"")
                                                 << R"(provider "myco": "wirez" is not a provider field)";
        QTest::newRow("provider: wrong type") << p + R"("selfHosted": "yes"}]})" << QByteArray("\"selfHosted\"")
                                              << R"(provider "myco": "selfHosted" must be true or false, not "yes")";
        QTest::newRow("provider: bad value") << p + R"("auth": "basic"}]})" << QByteArray("\"auth\"")
                                             << R"(provider "myco": "auth" must be one of "bearer", "x-api-key", not "basic")";
        const QByteArray m = R"({"catalog": {"models": [{"provider": "openai", "id": "gpt-5.2", )";
        QTest::newRow("catalogue override: unknown field")
            << m + R"("inputt": 1}]}})" << QByteArray("\"inputt\"") << R"(model openai/gpt-5.2: "inputt" is not a model field)";
        QTest::newRow("catalogue override: wrong type")
            << m + R"("input": "cheap"}]}})" << QByteArray("\"input\"")
            << R"(model openai/gpt-5.2: "input" must be a price in USD per million tokens from 0 to 100000, or null, not "cheap")";
        QTest::newRow("catalogue override: out of range")
            << m + R"("contextWindow": -5}]}})" << QByteArray("\"contextWindow\"")
            << R"(model openai/gpt-5.2: "contextWindow" must be a number of tokens from 0 to 1000000000, or null, not -5)";
        const QByteArray k = R"({"keys": [{"name": "ci", "key": "sk-aile-ci-0123456789abcdef", )";
        QTest::newRow("key: unknown field") << k + R"("rotuing": {}}]})" << QByteArray("\"rotuing\"") << R"(key "ci": "rotuing" is not a key field)";
        QTest::newRow("key: wrong type") << k + R"("routing": ["speed"]}]})" << QByteArray("\"routing\"")
                                         << R"(key "ci": "routing" must be an object, not a list)";
        QTest::newRow("key: out of range") << QByteArray(R"({"keys": [{"name": "ci", "key": "short"}]})") << QByteArray("\"key\"")
                                           << R"(key "ci": a provisioned key must be at least 16 characters)";
        QTest::newRow("key routing: unknown setting") << k + R"("routing": {"maxCostUsdd": 0.5}}]})" << QByteArray("\"maxCostUsdd\"")
                                                      << R"(key "ci": routing.maxCostUsdd is not a key routing setting)";
        QTest::newRow("key routing: wrong type") << k + R"("routing": {"prefer": "price", "maxCostUsd": "abc"}}]})" << QByteArray("\"maxCostUsd\"")
                                                 << R"(key "ci": routing.maxCostUsd: abc is not a cost cap)";
        QTest::newRow("key routing: out of range") << k + R"("routing": {"maxPricePercent": 5000}}]})" << QByteArray("\"maxPricePercent\"")
                                                   << R"(key "ci": routing.maxPricePercent must be a number above 0 and at most 1000)";
        const QByteArray r = k + R"("routes": [{"name": "coding", "targets": )" + Route2 + ", ";
        QTest::newRow("route: unknown field") << r + R"("ttftMss": 8000}]}]})" << QByteArray("\"ttftMss\"")
                                              << R"(key "ci": route "coding": "ttftMss" is not a route setting)";
        QTest::newRow("route: wrong type") << r + R"("budgetUsdPerDay": "five"}]}]})" << QByteArray("\"budgetUsdPerDay\"")
                                           << R"(key "ci": route "coding": budgetUsdPerDay "five" must be dollars a day)";
        QTest::newRow("route: out of range") << r + R"("ttftMs": 500}]}]})" << QByteArray("\"ttftMs\"")
                                             << R"(key "ci": route "coding": ttftMs 500 must be whole milliseconds from 1000 to 60000)";
        QTest::newRow("settings: unknown name") << QByteArray(R"({"settings": {"tieBandPercnt": 1}})") << QByteArray("\"tieBandPercnt\"")
                                                << R"(settings: "tieBandPercnt" is not a setting; the known ones are maxDials)";
        QTest::newRow("settings: wrong type") << QByteArray(R"({"settings": {"allowRemote": "yes"}})") << QByteArray("\"allowRemote\"")
                                              << R"(settings: "allowRemote" must be true or false, not "yes")";
        QTest::newRow("settings: out of range") << QByteArray(R"({"settings": {"maxDials": 99}})") << QByteArray("\"maxDials\"")
                                                << R"(settings: "maxDials" must be a whole number from 1 to 16, not 99)";
        QTest::newRow("routing: unknown field") << QByteArray(R"({"routing": {"selectoin": "price"}})") << QByteArray("\"selectoin\"")
                                                << R"(routing: "selectoin" is not a routing field)";
        QTest::newRow("routing: wrong type") << QByteArray(R"({"routing": {"fallback_models": "openai/gpt-5.2"}})")
                                             << QByteArray("\"fallback_models\"")
                                             << R"(routing: "fallback_models" must be a list of strings, not "openai/gpt-5.2")";
        QTest::newRow("routing: bad value") << QByteArray(R"({"routing": {"selection": "fastest"}})") << QByteArray("\"selection\"")
                                            << R"(routing: "selection" must be one of "price", "quota-reset", not "fastest")";
        QTest::newRow("top level: unknown entry") << QByteArray("{\n  \"sharer\": []\n}") << QByteArray("\"sharer\"")
                                                  << R"("sharer" is not a top-level entry of the configuration)";
        QTest::newRow("a name given twice") << s + R"("priority": 1, "priority": 2}]})" << QByteArray("\"priority\": 2")
                                            << R"("priority" is given twice in the same object (first on line 1, column 68); keep one)";
    }

    void aMistakeGetsTheSameMessageEverywhere()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, at);
        QFETCH(QString, says);
        const QString file = write(QStringLiteral("bad.jsonc"), text);
        const QString place = placeOf(text, at);

        // aile config check: one problem, at its place, and a non-zero exit.
        const Run check = runAile({QStringLiteral("config"), QStringLiteral("check"), file});
        QCOMPARE(check.exitCode, 1);
        const QHash<QString, QString> checked = problemLines(check.out, file);
        QVERIFY2(checked.size() == 1 && check.out.contains(file + QStringLiteral(": 1 problem")), qPrintable(check.out));
        const QString message = checked.keys().first();
        QVERIFY2(message.startsWith(says), qPrintable(message));
        QCOMPARE(checked.value(message), place);

        // aile serve --config: refuses to start with the same line, and the store is as it was.
        const QString dataDir = m_dir.filePath(QStringLiteral("data-%1").arg(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        seedStore(dataDir);
        const QByteArray before = storeDump(dataDir);
        const Run serve = runAile({QStringLiteral("serve"), QStringLiteral("--data-dir"), dataDir, QStringLiteral("--listen"),
                                   QStringLiteral("127.0.0.1:0"), QStringLiteral("--config"), file});
        QVERIFY2(serve.exitCode > 0, qPrintable(serve.err));
        QCOMPARE(problemLines(serve.err, file).value(message), place);
        QCOMPARE(storeDump(dataDir), before);

        // POST /admin/config on a running engine: a 400 with the same message and place; nothing imported.
        const QByteArray exportBefore = admin(*m_engine, "GET", QStringLiteral("/admin/config"));
        const Reply imported = send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/admin/config"), text,
                                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(imported.status, 400);
        const QJsonArray problems = imported.json().value(QLatin1String("error")).toObject().value(QLatin1String("problems")).toArray();
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().toObject().value(QLatin1String("message")).toString(), message);
        QCOMPARE(QStringLiteral("%1:%2")
                     .arg(problems.first().toObject().value(QLatin1String("line")).toInt())
                     .arg(problems.first().toObject().value(QLatin1String("column")).toInt()),
                 place);
        QVERIFY(imported.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString().contains(message));
        QCOMPARE(admin(*m_engine, "GET", QStringLiteral("/admin/config")), exportBefore);
    }

    void goodSharersThenABadRouteWriteNothing()
    {
        const QByteArray text = R"({
  // Two good sharers, then a key whose route is pinned to a sharer nobody adds.
  "sharers": [
    {"handle": "L00000000000000b1", "name": "one", "provider": "openai", "credential": "env:X"},
    {"handle": "L00000000000000b2", "name": "two", "provider": "openai", "credential": "env:X"}
  ],
  "keys": [{"name": "ci", "key": "sk-aile-ci-0123456789abcdef",
            "routes": [{"name": "coding", "targets": [{"model": "openai/gpt-5.2", "sharer": "L00000000000000b9"}]}]}]
})";
        const QString file = write(QStringLiteral("half.jsonc"), text);
        const QString dataDir = m_dir.filePath(QStringLiteral("half"));
        seedStore(dataDir);
        const QByteArray before = storeDump(dataDir);
        const Run serve = runAile({QStringLiteral("serve"), QStringLiteral("--data-dir"), dataDir, QStringLiteral("--listen"),
                                   QStringLiteral("127.0.0.1:0"), QStringLiteral("--config"), file});
        QVERIFY2(serve.exitCode > 0, qPrintable(serve.err));
        QVERIFY2(serve.err.contains(QLatin1String("route \"coding\" target 1 is pinned to sharer L00000000000000b9, which is not added")),
                 qPrintable(serve.err));
        QVERIFY2(serve.err.contains(QLatin1String("nothing was applied and the store is unchanged")), qPrintable(serve.err));
        QCOMPARE(storeDump(dataDir), before);
        QVERIFY(!storeDump(dataDir).contains("L00000000000000b1"));

        // The same file imported into a running engine: refused whole, its sharers not added.
        const Reply imported = send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/admin/config"), text,
                                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(imported.status, 400);
        QVERIFY(!m_engine->context().sharer(QStringLiteral("L00000000000000b1")));
        QVERIFY(!storeDump(m_engine->dataDir() + QStringLiteral("/data")).contains("L00000000000000b1"));

        // Fixed, it applies: the sharers and the route arrive together.
        QByteArray fixed = text;
        fixed.replace("L00000000000000b9", "L00000000000000b2");
        QCOMPARE(runAile({QStringLiteral("config"), QStringLiteral("check"), write(QStringLiteral("fixed.jsonc"), fixed)}).exitCode, 0);
    }

    void checkPrintsEveryProblemAndTouchesNoDataDirectory()
    {
        const QByteArray text = R"({
  "sharers": [{"handle": "L0123456789abcdef", "provider": "openai", "prioritty": 1, "slots": -1}],
  "settings": {"pinTtlSecond": 60},
  "keys": [{"name": "ci", "key": "sk-aile-ci-0123456789abcdef", "routing": {"prefer": "fast"}}]
})";
        const QString file = write(QStringLiteral("many.jsonc"), text);
        const QString dataDir = m_dir.filePath(QStringLiteral("never-created"));
        const Run check = runAile({QStringLiteral("config"), QStringLiteral("check"), QStringLiteral("--data-dir"), dataDir, file});
        QCOMPARE(check.exitCode, 1);
        const QHash<QString, QString> lines = problemLines(check.out, file);
        QVERIFY2(lines.size() == 4 && check.out.contains(file + QStringLiteral(": 4 problems")), qPrintable(check.out));
        QCOMPARE(lines.value(QStringLiteral("key \"ci\": routing.prefer takes price or speed")), placeOf(text, "\"prefer\""));
        QVERIFY(!QFileInfo::exists(dataDir));

        // A file with a problem of its own stops `aile serve` before the data directory is made.
        const Run serve = runAile({QStringLiteral("serve"), QStringLiteral("--data-dir"), dataDir, QStringLiteral("--listen"),
                                   QStringLiteral("127.0.0.1:0"), QStringLiteral("--config"), file});
        QVERIFY2(serve.exitCode > 0, qPrintable(serve.err));
        QCOMPARE(problemLines(serve.err, file).size(), 4);
        QVERIFY(!QFileInfo::exists(dataDir));

        // aile config import: every problem, each with its line and column, and nothing imported.
        const Run import = runAile({QStringLiteral("config"), QStringLiteral("import"), file, QStringLiteral("--url"), m_engine->baseUrl(),
                                    QStringLiteral("--admin-token-file"), adminTokenFile()});
        QCOMPARE(import.exitCode, 1);
        for (auto it = lines.begin(); it != lines.end(); ++it) {
            const QString at =
                QStringLiteral("line %1, column %2: ").arg(it.value().section(QLatin1Char(':'), 0, 0), it.value().section(QLatin1Char(':'), 1));
            QVERIFY2(import.err.contains(at + it.key()), qPrintable(import.err));
        }
        QVERIFY2(import.err.contains(QLatin1String("4 problems; nothing was imported")), qPrintable(import.err));
        QVERIFY(!m_engine->context().sharer(QStringLiteral("L0123456789abcdef")));

        // The documented example is clean.
        const Run clean = runAile({QStringLiteral("config"), QStringLiteral("check"), QStringLiteral(AILE_TEST_SOURCE_DIR "/data/example.jsonc")});
        QVERIFY2(clean.exitCode == 0 && clean.out.contains(QLatin1String(": no problems")), qPrintable(clean.out));
    }

    void aSyntaxErrorNamesItsLineAndColumn()
    {
        const QByteArray text = "{\n  // a comment /* with */ markers\n  \"sharers\": [\n    {\"provider\": \"openai\",}\n  ]\n  \"keys\": []\n}";
        const QString file = write(QStringLiteral("syntax.jsonc"), text);
        const Run check = runAile({QStringLiteral("config"), QStringLiteral("check"), file});
        QCOMPARE(check.exitCode, 1);
        const QHash<QString, QString> lines = problemLines(check.out, file);
        QVERIFY2(lines.size() == 1 && lines.keys().first().startsWith(QLatin1String("not valid JSON")), qPrintable(check.out));
        QCOMPARE(lines.values().first().section(QLatin1Char(':'), 0, 0), QStringLiteral("6"));
    }

    void anExportChecksCleanAndImportsBack()
    {
        // Its keys carry no secret: checked against the running engine's store (read, never written),
        // they are known; against an empty store they would need their "key".
        const QByteArray exported = admin(*m_engine, "GET", QStringLiteral("/admin/config"));
        const QString file = write(QStringLiteral("export.json"), exported);
        const QString dataDir = m_engine->dataDir() + QStringLiteral("/data");
        const Run check = runAile({QStringLiteral("config"), QStringLiteral("check"), QStringLiteral("--data-dir"), dataDir, file});
        QVERIFY2(check.exitCode == 0, qPrintable(check.out));
        const Run empty = runAile({QStringLiteral("config"), QStringLiteral("check"), file});
        QVERIFY2(empty.exitCode == 1 && empty.out.contains(QLatin1String("key \"test\": not in the store yet")), qPrintable(empty.out));
        QCOMPARE(send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/admin/config"), exported,
                      {{"authorization", QByteArray("Bearer ") + AdminToken}})
                     .status,
                 200);
    }

    void theManagementApiRefusesWithTheSameMessage()
    {
        // PUT /sharers/{handle}: the file's sharer message, word for word.
        Reply r = send(QStringLiteral("PUT"), m_engine->baseUrl() + QStringLiteral("/sharers/L00000000000000a1"), R"({"prioritty": 5})",
                       {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(r.status, 400);
        QVERIFY2(r.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .startsWith(QLatin1String(R"(sharer L00000000000000a1: "prioritty" is not a sharer field; the known ones are handle)")),
                 r.body.constData());
        r = send(QStringLiteral("PUT"), m_engine->baseUrl() + QStringLiteral("/sharers/L00000000000000a1"), R"({"priority": 20000})",
                 {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(r.status, 400);
        QCOMPARE(m_engine->context().sharer(QStringLiteral("L00000000000000a1"))->priority, 0);
        // PUT /keys/{id}: the file's key routing message (the row "key routing: unknown setting").
        r = send(QStringLiteral("PUT"), m_engine->baseUrl() + QStringLiteral("/keys/test"), R"({"routing": {"maxCostUsdd": 0.5}})",
                 {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(r.status, 400);
        const QString keyMessage = r.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
        QVERIFY2(keyMessage.startsWith(QLatin1String(R"(key "test": routing.maxCostUsdd is not a key routing setting)")), qPrintable(keyMessage));
        const Reply imported =
            send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/admin/config"),
                 R"({"keys": [{"name": "test", "routing": {"maxCostUsdd": 0.5}}]})", {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(imported.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("problems"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString(),
                 keyMessage);
        // PUT /v1/routing: the file's "routing" message.
        r = send(QStringLiteral("PUT"), m_engine->baseUrl() + QStringLiteral("/v1/routing"), R"({"selection": "fastest"})",
                 {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains(R"(routing: \"selection\" must be one of \"price\", \"quota-reset\", not \"fastest\")"), r.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestConfigValidation)
#include "TestConfigValidation.moc"
