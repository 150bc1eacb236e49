// Connect a tool's "Apply for me" and "Restore previous settings" (docs/gui.md): the diff is shown
// before anything is written, the key only by its start; confirming writes the tool's file with a
// backup; restoring puts the exact bytes back; cancelling writes nothing.
#include "clients/ToolConfigFile.h"
#include "dialogs/ApplySettingsDialog.h"
#include "dialogs/ConnectToolDialog.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>

using namespace Aile;
using Tool = Clients::ClientSnippets::Tool;

namespace {

const QString Key = QStringLiteral("sk-aile-00112233445566778899aabbccddeeff");
const QByteArray UserToml = "# mine\nmodel = \"o3\"\n\n[model_providers.ollama]\nbase_url = \"http://localhost:11434/v1\"\n";

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestApplySettings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        qputenv("CODEX_HOME", m_home->path().toUtf8());
        qputenv("CLAUDE_CONFIG_DIR", m_home->filePath(QStringLiteral("claude")).toUtf8());
        m_config = m_home->filePath(QStringLiteral("config.toml"));
        QFile f(m_config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(UserToml);
    }

    void applyShowsTheDiffThenWrites()
    {
        Ui::ConnectToolDialog dialog;
        fill(&dialog, Tool::Codex, QStringLiteral("codex/gpt-5.5"));
        auto *apply = dialog.findChild<QPushButton *>(QStringLiteral("applyForMe"));
        auto *restore = dialog.findChild<QPushButton *>(QStringLiteral("restoreSettings"));
        QVERIFY(apply && apply->isEnabled());
        QVERIFY(!restore->isEnabled());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("applyNote"))->text().contains(m_config));

        apply->click();
        auto *preview = dialog.findChild<Ui::ApplySettingsDialog *>();
        QVERIFY(preview);
        QVERIFY(preview->isVisible());
        QCOMPARE(readFile(m_config), UserToml); // nothing written yet
        QVERIFY(preview->diffText().contains(QStringLiteral("+model_provider = \"aile\"")));
        QVERIFY(preview->diffText().contains(QStringLiteral("-model = \"o3\"")));
        QVERIFY(!preview->diffText().contains(Key)); // only the key's start
        QVERIFY(preview->explanation().contains(QStringLiteral("your Aile key in full")));
        preview->confirmButton()->click();

        QVERIFY(readFile(m_config).contains("model_provider = \"aile\""));
        QVERIFY(readFile(m_config).startsWith("# mine\n"));
        QCOMPARE(readFile(Clients::ToolConfigFile::backupPath(m_config)), UserToml);
        QVERIFY2(dialog.testResult().contains(QStringLiteral("Wrote")), qPrintable(dialog.testResult()));
        QVERIFY(restore->isEnabled());

        // Nothing left to change: no dialog, a sentence.
        QVERIFY(!dialog.applyForMe());
        QVERIFY(dialog.testResult().contains(QStringLiteral("already holds")));

        Ui::ApplySettingsDialog *back = dialog.restoreSettings();
        QVERIFY(back);
        QVERIFY(back->diffText().contains(QStringLiteral("+model = \"o3\"")));
        back->confirmButton()->click();
        QCOMPARE(readFile(m_config), UserToml);
        QVERIFY(!restore->isEnabled());
    }

    void cancelWritesNothing()
    {
        Ui::ConnectToolDialog dialog;
        fill(&dialog, Tool::ClaudeCode, QStringLiteral("claude/claude-sonnet-5"));
        Ui::ApplySettingsDialog *preview = dialog.applyForMe();
        QVERIFY(preview);
        QVERIFY(preview->diffText().startsWith(QStringLiteral("--- /dev/null\n"))); // a new file
        preview->reject();
        QVERIFY(!QFile::exists(dialog.toolFile()));
    }

    void restoreRefusesWhenTheFileChanged()
    {
        Ui::ConnectToolDialog dialog;
        fill(&dialog, Tool::Codex, QStringLiteral("codex/gpt-5.5"));
        dialog.applyForMe()->confirmButton()->click();
        QFile f(m_config);
        QVERIFY(f.open(QIODevice::Append));
        f.write("[tui]\nnotifications = true\n");
        f.close();
        QVERIFY(!dialog.restoreSettings());
        QVERIFY2(dialog.testResult().contains(QStringLiteral("changed since Aile applied")), qPrintable(dialog.testResult()));
    }

    // After Apply for me, Test connection sends what the tool itself sends at start, with what
    // the file now holds (not the dialog's fields), and shows the trace of its one real request.
    void testConnectionRunsTheToolsOwnPath_data()
    {
        QTest::addColumn<int>("tool");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("steps");
        QTest::addColumn<QByteArray>("upstreamPath");
        QTest::newRow("Codex: GET /v1/models, then POST /v1/responses")
            << int(Tool::Codex) << "openai/gpt-5.2" << QStringList{QStringLiteral("GET /v1/models → 200"), QStringLiteral("POST /v1/responses → 200")}
            << QByteArray("/v1/responses");
        QTest::newRow("Claude Code: HEAD /, then POST /v1/messages")
            << int(Tool::ClaudeCode) << "claude/claude-sonnet-5"
            << QStringList{QStringLiteral("HEAD / → "), QStringLiteral("POST /v1/messages → 200")} << QByteArray("/v1/messages");
    }

    void testConnectionRunsTheToolsOwnPath()
    {
        QFETCH(int, tool);
        QFETCH(QString, model);
        QFETCH(QStringList, steps);
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
        dialog.applyForMe()->confirmButton()->click();
        // The file decides: a wrong key in the field is not what the test sends.
        dialog.findChild<QLineEdit *>(QStringLiteral("keyText"))->setText(QStringLiteral("sk-aile-not-the-applied-one"));

        QSignalSpy finished(&dialog, &Ui::ConnectToolDialog::testFinished);
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toInt(), 200);
        const QString traceId = finished.first().at(1).toString();
        QVERIFY(traceId.startsWith(QLatin1String("req_")));
        for (const QString &step : steps)
            QVERIFY2(dialog.testResult().contains(step), qPrintable(dialog.testResult()));
        QVERIFY2(dialog.testResult().contains(traceId), qPrintable(dialog.testResult()));
        QVERIFY(!dialog.testResult().contains(QLatin1String(Test::TestKey)));
        QCOMPARE(upstream.received().size(), 1);
        QCOMPARE(upstream.received().first().path, upstreamPath);
        QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("showTrace"))->isEnabled());
    }

    void sdksHaveNoApply()
    {
        Ui::ConnectToolDialog dialog;
        dialog.selectTool(Tool::OpenAiSdk);
        QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("applyForMe"))->isHidden());
    }

private:
    void fill(Ui::ConnectToolDialog *dialog, Tool tool, const QString &model)
    {
        dialog->setBaseUrl(QStringLiteral("http://127.0.0.1:2453"));
        dialog->selectTool(tool);
        dialog->findChild<QLineEdit *>(QStringLiteral("keyText"))->setText(Key);
        dialog->findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(model);
        dialog->show();
    }

    std::unique_ptr<QTemporaryDir> m_home;
    QString m_config;
};

QTEST_MAIN(TestApplySettings)
#include "TestApplySettings.moc"
