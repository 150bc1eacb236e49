// aile-fake-upstream: the test upstream as a program. Answers every wire with canned answers;
// a model id can ask for trouble: "...-fail-429", "...-fail-500", "...-fail-529", "...-slow-<ms>", and a prompt
// "[fake-tool-call] read <path>" for a tool-using turn (FakeToolCalls.h). Subscription
// logins meet the two subscription front doors (FakeSubscriptions.h), whose windows a test spends
// with POST /__fake/exhaust?account=…&seconds=…; GET /__fake/received lists what it was sent.
#include "FakeSubscriptions.h"
#include "FakeToolCalls.h"
#include "FakeUpstream.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTextStream>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A scriptable fake LLM upstream for tests."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("port"), QStringLiteral("Port (0: any free one)."), QStringLiteral("PORT"), QStringLiteral("0")});
    parser.process(app);
    Aile::SystemClock clock;
    Aile::Test::FakeUpstream upstream(&clock);
    Aile::Test::FakeSubscriptions subscriptions(&clock);
    subscriptions.attach(upstream);
    if (!upstream.listen(quint16(parser.value(QStringLiteral("port")).toUInt()))) {
        QTextStream(stderr) << "aile-fake-upstream: cannot listen\n";
        return 1;
    }
    // GET /__fake/received: what the upstream was sent (path and JSON body, in order), for the
    // e2e tests to check what a client's request became on its way through the engine.
    upstream.setFrontDoor([&upstream, inner = upstream.frontDoor()](const Aile::Test::ReceivedRequest &r,
                                                                    Aile::Http::HttpHeaders *extra) -> std::optional<Aile::Test::Script> {
        if (r.path != "/__fake/received")
            return inner ? inner(r, extra) : std::nullopt;
        QJsonArray all;
        for (const Aile::Test::ReceivedRequest &got : upstream.received())
            if (!got.path.startsWith("/__fake/"))
                all.append(QJsonObject{{QStringLiteral("path"), QString::fromLatin1(got.path)}, {QStringLiteral("body"), got.json()}});
        Aile::Test::Script s;
        s.headers.add("content-type", "application/json");
        s.body = QJsonDocument(QJsonObject{{QStringLiteral("received"), all}}).toJson(QJsonDocument::Compact);
        return s;
    });
    upstream.setChooser([](const Aile::Test::ReceivedRequest &r) -> std::optional<Aile::Test::Script> {
        const QString model = r.json().value(QLatin1String("model")).toString();
        const bool anthropic = r.path.endsWith("/messages");
        if (model.endsWith(QLatin1String("-fail-429")))
            return Aile::Test::FakeUpstream::error(429, QStringLiteral("rate limited (fake)"), anthropic, 1);
        if (model.endsWith(QLatin1String("-fail-529"))) // Anthropic's "overloaded"
            return Aile::Test::FakeUpstream::error(529, QStringLiteral("Overloaded (fake)"), anthropic);
        if (model.endsWith(QLatin1String("-fail-500")))
            return Aile::Test::FakeUpstream::error(500, QStringLiteral("internal error (fake)"), anthropic);
        if (auto turn = Aile::Test::fileReadingTurn(r)) // "[fake-tool-call] read <path>": a tool-using turn
            return turn;
        const qsizetype slow = model.indexOf(QLatin1String("-slow-"));
        if (slow > 0) {
            Aile::Test::Script s = Aile::Test::FakeUpstream::defaultFor(r.path, r.json());
            s.headDelayMs = model.mid(slow + 6).toLongLong();
            return s;
        }
        return std::nullopt;
    });
    QTextStream(stdout) << "listening on 127.0.0.1:" << upstream.port() << Qt::endl;
    return app.exec();
}
