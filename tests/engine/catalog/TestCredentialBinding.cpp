// Issue 14 (Secrets): a stored credential belongs to the (provider, base URL) it was entered for.
// Moving a sharer through the management API or an imported configuration without a new
// credential leaves it without one ("needs its key again"); plain http:// to another machine
// keeps no credential; the API may not hand a sharer the engine's own variables or another
// host's credential. Each case reads what the fake upstreams received.
#include "engine/routing/RoutingFixture.h"

#include "secrets/ReferencePolicy.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString Moved = QStringLiteral("L00000000000000c1");
const QString Stays = QStringLiteral("L00000000000000c2");
QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
} // namespace

class TestCredentialBinding : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;
    std::unique_ptr<FakeUpstream> elsewhere; // the host a sharer is moved to

    Reply admin(const QString &method, const QString &path, const QByteArray &body = {})
    {
        return send(method, f.engine->baseUrl() + path, body, {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    QJsonObject row(const QString &query, const QString &handle)
    {
        for (const QJsonValue &v : admin(QStringLiteral("GET"), QStringLiteral("/sharers?") + query).json().value(QLatin1String("data")).toArray())
            if (v.toObject().value(QLatin1String("handle")).toString() == handle)
                return v.toObject();
        return {};
    }
    QStringList credentialsSeenElsewhere() const
    {
        QStringList out;
        for (const ReceivedRequest &r : elsewhere->received())
            out << QString::fromLatin1(FakeUpstream::credentialOf(r));
        return out;
    }
    // The moved sharer is the cheaper one: while it has a credential, requests go to it.
    Reply chatToMoved() { return f.chat(QStringLiteral("openai/gpt-5.2"), {{"x-aile-sharer", Moved.toLatin1()}}); }

private Q_SLOTS:
    void init()
    {
        elsewhere = std::make_unique<FakeUpstream>(&f.clock);
        QVERIFY(elsewhere->listen());
        QVERIFY(f.start(QJsonArray{sharer(Moved, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")},
                                          QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}}}),
                                   sharer(Stays, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        QCOMPARE(chatToMoved().header("x-aile-sharer"), Moved.toLatin1());
        QCOMPARE(FakeUpstream::credentialOf(f.upstream->received().last()), Moved.toLatin1());
    }
    void cleanup()
    {
        f.engine.reset();
        elsewhere.reset();
    }

    void movingASharerThroughTheApiLeavesItWithoutItsKey_data()
    {
        QTest::addColumn<QJsonObject>("edit");
        QTest::newRow("base URL") << QJsonObject{};
        // Naming the same reference again is not a new credential: it still belongs to the old host.
        QTest::newRow("base URL, same reference named again")
            << QJsonObject{{QStringLiteral("credential"), QString(QStringLiteral("env:AILE_T_") + Moved.toUpper())}};
        QTest::newRow("base URL and provider") << QJsonObject{{QStringLiteral("provider"), QStringLiteral("claude")},
                                                              {QStringLiteral("models"), QJsonArray{QStringLiteral("claude-sonnet-5")}}};
    }
    void movingASharerThroughTheApiLeavesItWithoutItsKey()
    {
        QFETCH(QJsonObject, edit);
        edit.insert(QStringLiteral("baseUrl"), elsewhere->baseUrl());
        Reply r = admin(QStringLiteral("PUT"), QStringLiteral("/sharers/") + Moved, json(edit));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.json().value(QLatin1String("needsKey")).toBool(), true);
        QCOMPARE(r.json().value(QLatin1String("credentialAvailable")).toBool(), false);
        // The next request naming it carries no credential anywhere: the new host received nothing.
        const Reply chat = edit.contains(QLatin1String("provider")) ? f.chat(QStringLiteral("claude/claude-sonnet-5")) : chatToMoved();
        QVERIFY2(chat.status != 200, chat.body.constData());
        QCOMPARE(credentialsSeenElsewhere(), QStringList());
        // The API's JSON and the listing say why.
        QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/sharers/") + Moved).json().value(QLatin1String("needsKey")).toBool(), true);
        QCOMPARE(row(QString(), Moved).value(QLatin1String("needsKey")).toBool(), true);
        if (!edit.contains(QLatin1String("provider"))) {
            const QJsonObject listed = row(QStringLiteral("model=openai/gpt-5.2"), Moved);
            QCOMPARE(listed.value(QLatin1String("needsKey")).toBool(), true);
            QCOMPARE(listed.value(QLatin1String("available")).toBool(), false);
            QVERIFY2(listed.value(QLatin1String("reason")).toString().contains(QLatin1String("needs its key again")),
                     qPrintable(listed.value(QLatin1String("reason")).toString()));
        }
        // A restart applies the user's configuration file again, which puts the sharer back where
        // its key was entered for: it serves there, and the other host still saw nothing.
        QVERIFY(f.engine->restart());
        QCOMPARE(chatToMoved().status, 200);
        QCOMPARE(FakeUpstream::credentialOf(f.upstream->received().last()), Moved.toLatin1());
        QCOMPARE(credentialsSeenElsewhere(), QStringList());
    }

    void aNewCredentialInTheSameCallGoesWithTheMove()
    {
        qputenv("AILE_T_FOR_ELSEWHERE", "key-for-elsewhere");
        const Reply r = admin(
            QStringLiteral("PUT"), QStringLiteral("/sharers/") + Moved,
            json({{QStringLiteral("baseUrl"), elsewhere->baseUrl()}, {QStringLiteral("credential"), QStringLiteral("env:AILE_T_FOR_ELSEWHERE")}}));
        QCOMPARE(r.status, 200);
        QVERIFY(!r.json().contains(QLatin1String("needsKey")));
        QCOMPARE(chatToMoved().status, 200);
        QCOMPARE(credentialsSeenElsewhere(), QStringList{QStringLiteral("key-for-elsewhere")});
        // The old key never went there.
        QVERIFY(!credentialsSeenElsewhere().contains(Moved));
    }

    void anImportedConfigurationMovingASharerLeavesItWithoutItsKey()
    {
        QJsonObject moved = sharer(Moved, QStringLiteral("openai"), elsewhere->baseUrl(), {QStringLiteral("gpt-5.2")});
        const QByteArray config = json({{QStringLiteral("sharers"), QJsonArray{moved}}});
        for (int round = 0; round < 2; ++round) { // importing it again restores nothing
            const Reply r = admin(QStringLiteral("POST"), QStringLiteral("/admin/config"), config);
            QCOMPARE(r.status, 200);
            QVERIFY(chatToMoved().status != 200);
            QCOMPARE(credentialsSeenElsewhere(), QStringList());
            QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/sharers/") + Moved).json().value(QLatin1String("needsKey")).toBool(), true);
        }
    }

    void plainHttpToAnotherHostKeepsNoCredential_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        const QString plain = QStringLiteral("http://192.0.2.7:8080/v1");
        QTest::newRow("edit to http://") << QStringLiteral("PUT") << QJsonObject{{QStringLiteral("baseUrl"), plain}} << 400;
        QTest::newRow("new sharer on http://") << QStringLiteral("POST")
                                               << QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000000c3")},
                                                              {QStringLiteral("provider"), QStringLiteral("openai")},
                                                              {QStringLiteral("baseUrl"), QStringLiteral("http://llm.example.com/v1")},
                                                              {QStringLiteral("credential"), QStringLiteral("env:AILE_T_C3")}}
                                               << 400;
        QTest::newRow("https is fine") << QStringLiteral("PUT") << QJsonObject{{QStringLiteral("baseUrl"), QStringLiteral("https://192.0.2.7/v1")}}
                                       << 200;
        QTest::newRow("loopback http is fine") << QStringLiteral("PUT")
                                               << QJsonObject{{QStringLiteral("baseUrl"), QStringLiteral("http://localhost:9/v1")}} << 200;
        QTest::newRow("without a credential") << QStringLiteral("PUT")
                                              << QJsonObject{{QStringLiteral("baseUrl"), plain}, {QStringLiteral("credential"), QString()}} << 200;
    }
    void plainHttpToAnotherHostKeepsNoCredential()
    {
        QFETCH(QString, method);
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        const Reply r =
            admin(method, method == QLatin1String("PUT") ? QString(QStringLiteral("/sharers/") + Moved) : QStringLiteral("/sharers"), json(body));
        QCOMPARE(r.status, status);
        if (status == 400) {
            const QString host = QUrl(body.value(QLatin1String("baseUrl")).toString()).host();
            QCOMPARE(errorMessage(r),
                     QStringLiteral("sharer %1: the base URL %2 is plain http:// to %3, which would send its credential "
                                    "unencrypted; use https:// (TLS), or remove the credential (\"credential\": \"\") to dial it without one")
                         .arg(body.value(QLatin1String("handle")).toString(Moved), body.value(QLatin1String("baseUrl")).toString(), host));
            // Nothing changed.
            QCOMPARE(chatToMoved().status, 200);
        }
        // The same rule holds for an imported configuration.
        if (method == QLatin1String("POST")) {
            const Reply imported =
                admin(QStringLiteral("POST"), QStringLiteral("/admin/config"), json({{QStringLiteral("sharers"), QJsonArray{body}}}));
            QCOMPARE(imported.status, 400);
            QVERIFY2(errorMessage(imported).contains(QLatin1String("plain http://")), qPrintable(errorMessage(imported)));
        }
    }

    void theApiMayNotHandASharerTheEnginesOwnSecrets_data()
    {
        QTest::addColumn<QString>("credential");
        QTest::addColumn<QString>("says");
        QTest::newRow("the admin token's usual variable")
            << QStringLiteral("env:AILE_ADMIN_TOKEN") << QStringLiteral("a variable the engine reads for itself");
        QTest::newRow("the CLI's URL") << QStringLiteral("env:AILE_URL") << QStringLiteral("a variable the engine reads for itself");
        QTest::newRow("a proxy setting") << QStringLiteral("env:HTTPS_PROXY") << QStringLiteral("a variable the engine reads for itself");
        QTest::newRow("the session bus") << QStringLiteral("env:DBUS_SESSION_BUS_ADDRESS")
                                         << QStringLiteral("a variable the engine reads for itself");
        QTest::newRow("another sharer's stored key")
            << QString(QStringLiteral("keychain:aile-sharer-") + Stays) << QStringLiteral("the credential Aile stored for another sharer");
        QTest::newRow("another host's variable") << QString(QStringLiteral("env:AILE_T_") + Stays.toUpper())
                                                 << QStringLiteral("a credential is only sent where it was entered for");
    }
    void theApiMayNotHandASharerTheEnginesOwnSecrets()
    {
        QFETCH(QString, credential);
        QFETCH(QString, says);
        const QJsonObject body{{QStringLiteral("handle"), QStringLiteral("L00000000000000c4")},
                               {QStringLiteral("provider"), QStringLiteral("openai")},
                               {QStringLiteral("baseUrl"), elsewhere->baseUrl()},
                               {QStringLiteral("credential"), credential},
                               {QStringLiteral("models"), QJsonArray{QStringLiteral("gpt-5.2")}}};
        const Reply r = admin(QStringLiteral("POST"), QStringLiteral("/sharers"), json(body));
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(says), qPrintable(errorMessage(r)));
        // Through an import as well; nothing was imported.
        const Reply imported = admin(QStringLiteral("POST"), QStringLiteral("/admin/config"), json({{QStringLiteral("sharers"), QJsonArray{body}}}));
        QCOMPARE(imported.status, 400);
        QVERIFY2(errorMessage(imported).contains(says), qPrintable(errorMessage(imported)));
        QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/sharers/L00000000000000c4")).status, 404);
        QCOMPARE(credentialsSeenElsewhere(), QStringList());
    }

    void aConfigurationFileMayNameAnyVariable()
    {
        // The user's own file is not held to the API's rule: AILE_ADMIN_TOKEN works there.
        qputenv("AILE_ADMIN_TOKEN", "admin-variable-as-upstream-key");
        QJsonObject own = sharer(QStringLiteral("L00000000000000c5"), QStringLiteral("openai"), elsewhere->baseUrl(), {QStringLiteral("gpt-5.2")});
        own.insert(QStringLiteral("credential"), QStringLiteral("env:AILE_ADMIN_TOKEN"));
        TestEngine engine(configWith(QJsonArray{own}, {}, QJsonObject{{QStringLiteral("probeIntervalMs"), 1e12}}), &f.clock);
        QVERIFY(engine.start());
        QVERIFY(engine.context().credentials.contains(QStringLiteral("L00000000000000c5")));
        qunsetenv("AILE_ADMIN_TOKEN");
    }

    void engineVariablesIncludeTheAdminTokensOwn()
    {
        QVERIFY(Secrets::isEngineVariable(QStringLiteral("MY_ADMIN_VAR"), QStringLiteral("env:MY_ADMIN_VAR")));
        QVERIFY(!Secrets::isEngineVariable(QStringLiteral("MY_ADMIN_VAR"), QStringLiteral("keychain:MY_ADMIN_VAR")));
        QVERIFY(!Secrets::isEngineVariable(QStringLiteral("OPENAI_API_KEY"), QString()));
        QVERIFY(!Secrets::isEngineVariable(QStringLiteral("AILE_WORK_KEY"), QString()));
    }
};

QTEST_GUILESS_MAIN(TestCredentialBinding)
#include "TestCredentialBinding.moc"
