// The management API as components (docs/architecture.md, "What a component depends on"): each
// is built with only the services it uses, takes only its own calls, and the API answers a call
// none of them takes with a 404 that names it. The calls themselves are tested through the engine
// in the suites of their subjects (keys, sharers, catalogue, usage, dry run, replay).
#include "api/ManagementApi.h"
#include "api/RouteTemplate.h"
#include "api/UsageApi.h"
#include "core/Clock.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"

#include <QtCore/QJsonArray>
#include <QtTest/QTest>

using namespace Aile;

namespace {

struct Answer
{
    bool taken = false;
    int status = 0;
    QJsonObject body;
};

Answer ask(Api::ManagementComponent &component, const QByteArray &method, const QByteArray &path, const QByteArray &query = {})
{
    Answer a;
    a.taken = component.handle({method, path, query, {}}, nullptr, [&a](int status, const QJsonObject &body) {
        a.status = status;
        a.body = body;
    });
    return a;
}

/// Takes every call under its prefix and answers with its name.
class Named : public Api::ManagementComponent
{
public:
    Named(QByteArray prefix, QString name) : m_prefix(std::move(prefix)), m_name(std::move(name)) { }
    bool handle(const Api::ManagementRequest &request, QObject *, const Api::ManagementReply &reply) override
    {
        if (!request.path.startsWith(m_prefix))
            return false;
        reply(200, QJsonObject{{QStringLiteral("by"), m_name}});
        return true;
    }

private:
    QByteArray m_prefix;
    QString m_name;
};

} // namespace

class TestManagementComponents : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aCallNoComponentTakesIsA404NamingIt()
    {
        Api::ManagementApi api;
        api.add(std::make_unique<Named>("/keys", QStringLiteral("keys")));
        int status = 0;
        QString message;
        api.handle({"DELETE", "/sharers", {}, {}}, nullptr, [&](int s, const QJsonObject &body) {
            status = s;
            message = body.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
        });
        QCOMPARE(status, 404);
        QCOMPARE(message, QStringLiteral("no such management endpoint: DELETE /sharers"));
    }

    void theFirstComponentThatTakesACallAnswersIt()
    {
        Api::ManagementApi api;
        api.add(std::make_unique<Named>("/keys/usage", QStringLiteral("usage")));
        api.add(std::make_unique<Named>("/keys", QStringLiteral("keys")));
        QString by;
        auto record = [&by](int, const QJsonObject &body) { by = body.value(QLatin1String("by")).toString(); };
        api.handle({"GET", "/keys/usage/spend", {}, {}}, nullptr, record);
        QCOMPARE(by, QStringLiteral("usage"));
        api.handle({"GET", "/keys/k1", {}, {}}, nullptr, record);
        QCOMPARE(by, QStringLiteral("keys"));
    }

    void usageCallsNeedOnlyTheirServices_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("query");
        QTest::addColumn<bool>("taken");
        QTest::addColumn<int>("status");
        QTest::newRow("spend") << QByteArray("GET") << QByteArray("/keys/usage/spend") << QByteArray("days=2") << true << 200;
        QTest::newRow("spend, days out of range") << QByteArray("GET") << QByteArray("/keys/usage/spend") << QByteArray("days=0") << true << 400;
        QTest::newRow("spend of an unknown key") << QByteArray("GET") << QByteArray("/keys/usage/spend") << QByteArray("key=nobody") << true << 404;
        QTest::newRow("charts") << QByteArray("GET") << QByteArray("/keys/usage/charts") << QByteArray() << true << 200;
        QTest::newRow("requests, nothing recorded") << QByteArray("GET") << QByteArray("/keys/usage/requests") << QByteArray() << true << 200;
        QTest::newRow("POST is not a usage call") << QByteArray("POST") << QByteArray("/keys/usage/spend") << QByteArray() << false << 0;
        QTest::newRow("a key is not a usage call") << QByteArray("GET") << QByteArray("/keys/k1") << QByteArray() << false << 0;
    }

    void usageCallsNeedOnlyTheirServices()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, query);
        QFETCH(bool, taken);
        QFETCH(int, status);
        // The clock and the keys; no store and no trace sink: an engine that records nothing.
        ManualClock clock;
        State::KeyBook keys;
        Api::UsageApi usage(clock, keys, {});
        const Answer a = ask(usage, method, path, query);
        QCOMPARE(a.taken, taken);
        QCOMPARE(a.status, status);
        if (path == "/keys/usage/requests")
            QCOMPARE(a.body.value(QLatin1String("total")).toInt(-1), 0);
    }

    void theRouteTemplateNeedsOnlyTheBooks()
    {
        State::KeyBook keys;
        State::SharerBook sharers;
        Api::RouteTemplateApi templates(keys, sharers);
        QCOMPARE(ask(templates, "GET", "/keys/route-template", "model=openai/gpt-5.2").status, 400);
        QCOMPARE(ask(templates, "GET", "/keys/route-template", "model=gpt-5.2&key=nobody").status, 404);
        const Answer none = ask(templates, "GET", "/keys/route-template", "model=gpt-5.2");
        QCOMPARE(none.status, 200);
        QVERIFY(ask(templates, "POST", "/keys/route-template").taken == false);
    }
};

QTEST_GUILESS_MAIN(TestManagementComponents)
#include "TestManagementComponents.moc"
