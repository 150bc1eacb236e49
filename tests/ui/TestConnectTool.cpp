// Connect a tool: the settings each client needs to reach the proxy (as CLIENTS.md describes
// the real clients), and "Test connection" sending a real request through a real engine.
#include "api/values/JsonFields.h"
#include "catalog/Catalog.h"
#include "dialogs/ConnectToolDialog.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>

using namespace Aile;
using Tool = Ui::ClientSnippets::Tool;

namespace {

const QString Base = QStringLiteral("http://127.0.0.1:2453");
const QString Key = QStringLiteral("sk-aile-0123456789abcdef");

// The shipped catalogue's providers, as EngineStatus carries them: which wires each speaks.
QJsonArray builtInProviders()
{
    QJsonArray out;
    for (const Catalog::ProviderInfo &p : Catalog::Catalog::builtIn().providers())
        out.append(p.toJson());
    return out;
}

QJsonObject sharerRow(const QString &provider, const QStringList &models, const QStringList &tested = {}, bool blocked = false)
{
    QJsonObject o{
        {QStringLiteral("handle"), QStringLiteral("L%1").arg(qHash(QString(provider + models.join(QLatin1Char(',')))), 16, 16, QLatin1Char('0'))},
        {QStringLiteral("name"), QString(provider + QStringLiteral(" account"))},
        {QStringLiteral("provider"), provider},
        {QStringLiteral("models"), QJsonArray::fromStringList(models)},
        {QStringLiteral("tested"), QJsonArray::fromStringList(tested)}};
    if (blocked)
        o.insert(QStringLiteral("blocked"), true);
    return o;
}

QString allBlocks(Tool tool, const QString &model = {})
{
    QString out;
    for (const auto &b : Ui::ClientSnippets::blocks(tool, Base, Key, model))
        out += b.code;
    return out;
}

} // namespace

class TestConnectTool : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void snippetsPointEachClientAtTheProxy_data()
    {
        QTest::addColumn<int>("tool");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("Claude Code: environment, root base URL") << int(Tool::ClaudeCode)
                                                                 << QStringList{QStringLiteral("export ANTHROPIC_BASE_URL=http://127.0.0.1:2453\n"),
                                                                                QStringLiteral("export ANTHROPIC_API_KEY='sk-aile-0123456789abcdef'"),
                                                                                QStringLiteral("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")};
        QTest::newRow("Codex: config.toml provider on the Responses wire")
            << int(Tool::Codex)
            << QStringList{QStringLiteral("model = \"gpt-5.5\"\nmodel_provider = \"aile\"\n"),
                           QStringLiteral("[model_providers.aile]\nname = \"Aile\"\nbase_url = \"http://127.0.0.1:2453/v1\"\n"
                                          "env_key = \"AILE_KEY\"\nwire_api = \"responses\"\n"),
                           QStringLiteral("check_for_update_on_startup = false"),
                           QStringLiteral("[analytics]\nenabled = false\n"),
                           QStringLiteral("[otel]\nexporter = \"none\"\nmetrics_exporter = \"none\"\n"),
                           QStringLiteral("[features]\nplugins = false\n"),
                           QStringLiteral("export AILE_KEY='sk-aile-0123456789abcdef'")};
        QTest::newRow("OpenCode: openai-compatible provider on /v1")
            << int(Tool::OpenCode)
            << QStringList{QStringLiteral("\"npm\": \"@ai-sdk/openai-compatible\""),   QStringLiteral("\"baseURL\": \"http://127.0.0.1:2453/v1\""),
                           QStringLiteral("\"apiKey\": \"sk-aile-0123456789abcdef\""), QStringLiteral("export OPENCODE_CONFIG_CONTENT='{"),
                           QStringLiteral("OPENCODE_DISABLE_MODELS_FETCH=1"),          QStringLiteral("opencode run -m 'aile/openai/gpt-5.2'")};
        QTest::newRow("OpenAI SDK: base URL with /v1")
            << int(Tool::OpenAiSdk)
            << QStringList{QStringLiteral("export OPENAI_BASE_URL=http://127.0.0.1:2453/v1\n"),
                           QStringLiteral("OpenAI(base_url=\"http://127.0.0.1:2453/v1\", api_key=\"sk-aile-0123456789abcdef\")"),
                           QStringLiteral("new OpenAI({ baseURL: \"http://127.0.0.1:2453/v1\", apiKey: \"sk-aile-0123456789abcdef\" })")};
        QTest::newRow("Anthropic SDK: base URL without /v1")
            << int(Tool::AnthropicSdk)
            << QStringList{QStringLiteral("export ANTHROPIC_BASE_URL=http://127.0.0.1:2453\n"),
                           QStringLiteral("anthropic.Anthropic(base_url=\"http://127.0.0.1:2453\", api_key="),
                           QStringLiteral("new Anthropic({ baseURL: \"http://127.0.0.1:2453\", apiKey: ")};
    }

    void snippetsPointEachClientAtTheProxy()
    {
        QFETCH(int, tool);
        QFETCH(QStringList, expected);
        const QString text = allBlocks(Tool(tool));
        for (const QString &e : expected)
            QVERIFY2(text.contains(e), qPrintable(QStringLiteral("missing:\n%1\nin:\n%2").arg(e, text)));
        QVERIFY(!Ui::ClientSnippets::note(Tool(tool)).isEmpty());
    }

    void anthropicSnippetsNeverAddV1()
    {
        QVERIFY(!allBlocks(Tool::AnthropicSdk).contains(QLatin1String("/v1")));
        QVERIFY(!allBlocks(Tool::ClaudeCode).contains(QLatin1String("/v1")));
    }

    void aPickedModelIsWrittenAsTheClientSendsIt()
    {
        QVERIFY(allBlocks(Tool::Codex, QStringLiteral("openrouter/deepseek/deepseek-chat"))
                    .contains(QLatin1String("model = \"openrouter/deepseek/deepseek-chat\"")));
        QVERIFY(allBlocks(Tool::Codex, QStringLiteral("codex/gpt-5.5-mini")).contains(QLatin1String("model = \"gpt-5.5-mini\"")));
        QVERIFY(allBlocks(Tool::OpenAiSdk, QStringLiteral("deepseek/deepseek-chat")).contains(QLatin1String("model=\"deepseek/deepseek-chat\"")));
    }

    void withoutAKeyTheSnippetSaysWhereToPasteIt()
    {
        QString text;
        for (const auto &b : Ui::ClientSnippets::blocks(Tool::ClaudeCode, Base, QString(), QString()))
            text += b.code;
        QVERIFY(text.contains(Ui::ClientSnippets::keyPlaceholder()));
    }

    void shellQuotingSurvivesAnApostrophe()
    {
        QString text;
        for (const auto &b : Ui::ClientSnippets::blocks(Tool::ClaudeCode, Base, QStringLiteral("it's"), QString()))
            text += b.code;
        QVERIFY(text.contains(QLatin1String("ANTHROPIC_API_KEY='it'\\''s'")));
    }

    void theDialogOffersAConfiguredKeyAndShowsEachTool()
    {
        Ui::ConnectToolDialog dialog;
        dialog.setBaseUrl(Base);
        const QJsonArray keys{QJsonObject{{QStringLiteral("id"), QStringLiteral("k_1")},
                                          {QStringLiteral("name"), QStringLiteral("laptop")},
                                          {QStringLiteral("prefix"), QStringLiteral("sk-aile-0123")}}};
        dialog.setKeys(Api::Json::listOf<Api::KeyInfo>(keys), {{QStringLiteral("laptop"), Key}});
        QCOMPARE(dialog.key(), Key);
        dialog.setProviders(Api::Json::listOf<Api::ProviderStatus>(builtInProviders()));
        dialog.setSharers(Api::Json::listOf<Api::SharerStatus>(QJsonArray{sharerRow(QStringLiteral("claude"), {QStringLiteral("claude-sonnet-5")}),
                                                                          sharerRow(QStringLiteral("openai"), {QStringLiteral("gpt-5.2")})}));
        dialog.show();
        auto *list = dialog.findChild<QListWidget *>(QStringLiteral("toolList"));
        QCOMPARE(list->count(), 5);
        for (Tool tool : Ui::ClientSnippets::tools()) {
            dialog.selectTool(tool);
            QCOMPARE(dialog.tool(), tool);
            QVERIFY(!dialog.model().isEmpty());
            QCOMPARE(dialog.blockText(0), Ui::ClientSnippets::blocks(tool, Base, Key, dialog.model()).at(0).code);
        }
        // Typing another key rewrites the snippets at once.
        auto *keyEdit = dialog.findChild<QLineEdit *>(QStringLiteral("keyText"));
        keyEdit->setText(QStringLiteral("sk-aile-other"));
        dialog.selectTool(Tool::ClaudeCode);
        QVERIFY(dialog.blockText(0).contains(QLatin1String("sk-aile-other")));
        QCOMPARE(keyEdit->echoMode(), QLineEdit::Password); // a secret is not shown unless asked
        // The engine's next status does not undo what the user typed.
        dialog.setKeys(Api::Json::listOf<Api::KeyInfo>(keys), {{QStringLiteral("laptop"), Key}});
        QCOMPARE(dialog.key(), QStringLiteral("sk-aile-other"));
    }

    void testConnectionSendsARealRequestThroughTheProxy_data()
    {
        QTest::addColumn<int>("tool");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QByteArray>("upstreamPath");
        QTest::newRow("Claude Code on Messages") << int(Tool::ClaudeCode) << "claude/claude-sonnet-5" << QByteArray("/v1/messages");
        QTest::newRow("Codex on Responses") << int(Tool::Codex) << "openai/gpt-5.5" << QByteArray("/v1/responses");
        QTest::newRow("OpenAI SDK on chat completions") << int(Tool::OpenAiSdk) << "openai/gpt-5.2" << QByteArray("/v1/chat/completions");
    }

    void testConnectionSendsARealRequestThroughTheProxy()
    {
        QFETCH(int, tool);
        QFETCH(QString, model);
        QFETCH(QByteArray, upstreamPath);
        Test::FakeUpstream upstream;
        QVERIFY(upstream.listen());
        Test::TestEngine engine(Test::basicConfig(upstream.baseUrl()));
        QVERIFY2(engine.start(), qPrintable(engine.startError()));

        Ui::ConnectToolDialog dialog;
        dialog.setBaseUrl(engine.baseUrl());
        dialog.selectTool(Tool(tool));
        dialog.findChild<QLineEdit *>(QStringLiteral("keyText"))->setText(QLatin1String(Test::TestKey));
        dialog.findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(model);
        QSignalSpy finished(&dialog, &Ui::ConnectToolDialog::testFinished);
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toInt(), 200);
        QVERIFY(finished.first().at(1).toString().startsWith(QLatin1String("req_")));
        QVERIFY2(dialog.testResult().startsWith(QLatin1String("HTTP 200")), qPrintable(dialog.testResult()));
        QCOMPARE(upstream.received().size(), 1);
        QCOMPARE(upstream.received().first().path, upstreamPath);
        QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("showTrace"))->isEnabled());
    }

    void aWrongKeyIsReportedWithTheProxysMessage()
    {
        Test::FakeUpstream upstream;
        QVERIFY(upstream.listen());
        Test::TestEngine engine(Test::basicConfig(upstream.baseUrl()));
        QVERIFY(engine.start());
        Ui::ConnectToolDialog dialog;
        dialog.setBaseUrl(engine.baseUrl());
        dialog.selectTool(Tool::OpenAiSdk);
        dialog.findChild<QLineEdit *>(QStringLiteral("keyText"))->setText(QStringLiteral("sk-aile-wrong"));
        dialog.findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(QStringLiteral("openai/gpt-5.2"));
        QSignalSpy finished(&dialog, &Ui::ConnectToolDialog::testFinished);
        dialog.testConnection();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toInt(), 401);
        QVERIFY(dialog.testResult().startsWith(QLatin1String("HTTP 401")));
        QCOMPARE(upstream.received().size(), 0);
    }
};

// Connect a tool preselects a model a sharer of the user's offers, on a provider that speaks the
// tool's wire; says so when there is none; and never writes a snippet whose model has no sharer.
class TestConnectToolModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void preferredModel_data()
    {
        QTest::addColumn<int>("tool");
        QTest::addColumn<QJsonArray>("sharers");
        QTest::addColumn<QString>("expected");
        const QJsonObject openai = sharerRow(QStringLiteral("openai"), {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")});
        QTest::newRow("Codex with OpenAI API keys only: an openai model, not the codex subscription's gpt-5.5")
            << int(Tool::Codex) << QJsonArray{openai} << QStringLiteral("openai/gpt-5.2");
        QTest::newRow("Codex with a codex subscription: its own default")
            << int(Tool::Codex) << QJsonArray{openai, sharerRow(QStringLiteral("codex"), {QStringLiteral("gpt-5.5")})}
            << QStringLiteral("codex/gpt-5.5");
        QTest::newRow("Codex: a provider without the Responses wire does not count")
            << int(Tool::Codex) << QJsonArray{sharerRow(QStringLiteral("gemini"), {QStringLiteral("gemini-3-pro")})} << QString();
        QTest::newRow("Claude Code with OpenAI keys only: nothing speaks Messages") << int(Tool::ClaudeCode) << QJsonArray{openai} << QString();
        QTest::newRow("Claude Code on another provider that speaks Messages")
            << int(Tool::ClaudeCode) << QJsonArray{sharerRow(QStringLiteral("deepseek"), {QStringLiteral("deepseek-chat")})}
            << QStringLiteral("deepseek/deepseek-chat");
        QTest::newRow("a sharer listing no model serves its provider's default")
            << int(Tool::ClaudeCode) << QJsonArray{sharerRow(QStringLiteral("claude"), {})} << QStringLiteral("claude/claude-sonnet-5");
        QTest::newRow("the OpenAI SDK's default when a sharer offers it")
            << int(Tool::OpenAiSdk) << QJsonArray{openai} << QStringLiteral("openai/gpt-5.2");
        QTest::newRow("a model a sharer passed a test of comes first")
            << int(Tool::OpenAiSdk)
            << QJsonArray{sharerRow(QStringLiteral("openrouter"),
                                    {QStringLiteral("anthropic/claude-sonnet-5"), QStringLiteral("deepseek/deepseek-chat")},
                                    {QStringLiteral("deepseek/deepseek-chat")})}
            << QStringLiteral("openrouter/deepseek/deepseek-chat");
        QTest::newRow("a team server's models go by their own provider/model names, not aile/…")
            << int(Tool::Codex) << QJsonArray{sharerRow(QStringLiteral("aile"), {QStringLiteral("openai/gpt-5.2")})}
            << QStringLiteral("openai/gpt-5.2");
        QTest::newRow("a blocked sharer does not count")
            << int(Tool::OpenAiSdk) << QJsonArray{sharerRow(QStringLiteral("openai"), {QStringLiteral("gpt-5.2")}, {}, true)} << QString();
        QTest::newRow("no sharer at all") << int(Tool::AnthropicSdk) << QJsonArray() << QString();
    }

    void preferredModel()
    {
        QFETCH(int, tool);
        QFETCH(QJsonArray, sharers);
        QFETCH(QString, expected);
        QCOMPARE(Ui::ClientSnippets::preferredModel(Tool(tool), sharers, builtInProviders()), expected);
    }

    void theDialogPreselectsAndFollowsTheTool()
    {
        Ui::ConnectToolDialog dialog;
        dialog.setBaseUrl(Base);
        dialog.setProviders(Api::Json::listOf<Api::ProviderStatus>(builtInProviders()));
        dialog.setSharers(Api::Json::listOf<Api::SharerStatus>(
            QJsonArray{sharerRow(QStringLiteral("openai"), {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")})}));
        dialog.findChild<QLineEdit *>(QStringLiteral("keyText"))->setText(Key);
        dialog.selectTool(Tool::Codex);
        QCOMPARE(dialog.model(), QStringLiteral("openai/gpt-5.2"));
        QVERIFY(dialog.blockText(0).startsWith(QLatin1String("model = \"openai/gpt-5.2\"\n")));
        QVERIFY(!dialog.blockText(0).contains(QLatin1String("gpt-5.5")));
        QCOMPARE(dialog.modelNote(), QStringLiteral("Chosen because a sharer of yours offers it."));

        // A typed model stays through the tool switch and the next status.
        auto *model = dialog.findChild<QComboBox *>(QStringLiteral("modelChoice"));
        model->setEditText(QStringLiteral("openai/gpt-5.5"));
        dialog.selectTool(Tool::OpenAiSdk);
        dialog.setSharers(Api::Json::listOf<Api::SharerStatus>(
            QJsonArray{sharerRow(QStringLiteral("openai"), {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")})}));
        QCOMPARE(dialog.model(), QStringLiteral("openai/gpt-5.5"));
        QVERIFY(dialog.modelNote().isEmpty());
    }

    void withNoSharerForTheToolItSaysSoAndWritesNoSnippet()
    {
        Ui::ConnectToolDialog dialog;
        dialog.setBaseUrl(Base);
        dialog.setProviders(Api::Json::listOf<Api::ProviderStatus>(builtInProviders()));
        dialog.setSharers(Api::Json::listOf<Api::SharerStatus>(QJsonArray{sharerRow(QStringLiteral("openai"), {QStringLiteral("gpt-5.2")})}));
        dialog.findChild<QLineEdit *>(QStringLiteral("keyText"))->setText(Key);
        dialog.show();
        dialog.selectTool(Tool::ClaudeCode);
        QVERIFY(dialog.model().isEmpty());
        QVERIFY2(dialog.modelNote().startsWith(QLatin1String("No sharer can serve Claude Code yet: it speaks the messages wire")),
                 qPrintable(dialog.modelNote()));
        QVERIFY(dialog.blockText(0).isEmpty());
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("testConnection"))->isEnabled());
        // A model typed that no sharer offers is written as asked, with a warning.
        dialog.findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(QStringLiteral("claude/claude-sonnet-5"));
        QVERIFY(dialog.blockText(0).contains(QLatin1String("ANTHROPIC_BASE_URL")));
        QVERIFY(dialog.modelNote().startsWith(QLatin1String("None of your sharers offers claude/claude-sonnet-5")));
        // Once a sharer can serve it, the dialog fills the model in.
        dialog.findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(QString());
        dialog.setSharers(Api::Json::listOf<Api::SharerStatus>(QJsonArray{sharerRow(QStringLiteral("deepseek"), {QStringLiteral("deepseek-chat")})}));
        QCOMPARE(dialog.model(), QStringLiteral("deepseek/deepseek-chat"));
        QVERIFY(dialog.blockText(0).contains(QLatin1String("export ANTHROPIC_MODEL='deepseek/deepseek-chat'")));
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestConnectTool snippets;
    TestConnectToolModel model;
    return QTest::qExec(&snippets, argc, argv) | QTest::qExec(&model, argc, argv);
}

#include "TestConnectTool.moc"
