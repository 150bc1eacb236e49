// Issue 19 (docs/routing.md "Naming the provider"): an auto/ answer names the model the client
// sent, in the body and in every streamed event that carries a model, on all three wires;
// x-aile-model still names what served.
#include "RoutingFixture.h"

#include "wire/SseParser.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // openai: chat and responses
const QString K = QStringLiteral("L00000000000000c1"); // claude: messages

// Every model member of a JSON value, wherever it sits.
void modelsIn(const QJsonValue &v, QStringList *out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == QLatin1String("model") && it.value().isString())
                out->append(it.value().toString());
            modelsIn(it.value(), out);
        }
    } else if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            modelsIn(e, out);
    }
}
} // namespace

class TestModelEcho : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    // The models an answer names: its body's, or every streamed event's.
    static QStringList modelsOf(const Reply &r, bool stream)
    {
        QStringList out;
        if (!stream) {
            modelsIn(r.json(), &out);
            return out;
        }
        Wire::SseParser parser;
        for (const Wire::SseEvent &ev : parser.feed(r.body))
            modelsIn(QJsonDocument::fromJson(ev.data).object(), &out);
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}),
                                   sharer(K, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")})}));
    }

    void theAnswerNamesTheIdTheClientSent_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("served"); // x-aile-model
        QTest::addColumn<QString>("echoed"); // the answer's model
        const QString chat = QStringLiteral("/v1/chat/completions"), responses = QStringLiteral("/v1/responses"),
                      messages = QStringLiteral("/v1/messages");
        for (const bool stream : {false, true}) {
            const char *how = stream ? "streamed" : "not streamed";
            QTest::addRow("chat completions, %s", how) << chat << "auto/gpt-5.2" << stream << "openai/gpt-5.2"
                                                       << "auto/gpt-5.2";
            QTest::addRow("responses, %s", how) << responses << "auto/gpt-5.2" << stream << "openai/gpt-5.2"
                                                << "auto/gpt-5.2";
            QTest::addRow("messages, %s", how) << messages << "auto/claude-sonnet-5" << stream << "claude/claude-sonnet-5"
                                               << "auto/claude-sonnet-5";
            // A named provider's answer keeps the upstream's own id.
            QTest::addRow("a named provider, %s", how) << chat << "openai/gpt-5.2" << stream << "openai/gpt-5.2"
                                                       << "gpt-5.2";
        }
    }

    void theAnswerNamesTheIdTheClientSent()
    {
        QFETCH(QString, path);
        QFETCH(QString, model);
        QFETCH(bool, stream);
        QFETCH(QString, served);
        QFETCH(QString, echoed);
        const Reply r = f.post(path, RoutingFixture::chatBody(model, stream));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(QString::fromUtf8(r.header("x-aile-model")), served);
        // The upstream was sent its own id.
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("model")).toString(), served.section(QLatin1Char('/'), 1));
        const QStringList models = modelsOf(r, stream);
        QVERIFY2(!models.isEmpty(), r.body.constData());
        for (const QString &m : models)
            QCOMPARE(m, echoed);
        // What is not the model is relayed as it came: the text and the usage.
        QVERIFY2(r.body.contains("Hel") || r.body.contains("Hello"), r.body.constData());
        QCOMPARE(f.lastTrace().value(QLatin1String("outputTokens")).toInt(), 5);
    }
};

QTEST_GUILESS_MAIN(TestModelEcho)
#include "TestModelEcho.moc"
