// "Apply for me" on real-looking configuration files of each tool (docs/getting-started.md):
// Aile's part set, everything else kept (TOML byte for byte, JSON key for key), a second apply
// writes nothing, undo puts back the exact previous bytes and refuses when the file changed.
#include "clients/TextDiff.h"
#include "clients/ToolConfigFile.h"

#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace Aile::Clients;
using Tool = ClientSnippets::Tool;

namespace {

const QString Key = QStringLiteral("sk-aile-00112233445566778899aabbccddeeff");
const QString Base = QStringLiteral("http://127.0.0.1:2453");

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QByteArray sample(const QString &name)
{
    return readFile(QStringLiteral(AILE_CLIENTS_TEST_DATA "/") + name);
}

ToolSetup setup(Tool tool, const QString &model, bool ownLogin = false)
{
    return ToolSetup{tool, Base, Key, model, ownLogin};
}

// Owner, group and other bits (Qt's "User" bits repeat the owner's for the current user).
QFileDevice::Permissions mode(const QString &path)
{
    return QFile::permissions(path) & QFileDevice::Permissions(0x7077);
}

QJsonObject json(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

} // namespace

class TestToolConfigApply : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void codexKeepsEveryOtherByte_data();
    void codexKeepsEveryOtherByte();
    void claudeSetsOnlyItsEnvKeys();
    void claudeOwnLoginTakesTheKeyOutOfTheWay();
    void openCodeAddsItsProvider();
    void secondApplyWritesNothing_data();
    void secondApplyWritesNothing();
    void undoRestoresTheExactBytes_data();
    void undoRestoresTheExactBytes();
    void undoOfACreatedFileRemovesIt();
    void undoRefusesWhenTheFileChanged();
    void reapplyKeepsTheFirstBackup();
    void unsafeFilesAreRefused_data();
    void unsafeFilesAreRefused();
    void previewMasksTheKey();
    void pathsFollowTheToolsVariables();
    void diffShowsOnlyTheChange();

private:
    QString tempFile(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir->filePath(name);
        QFile::remove(path);
        QFile::remove(ToolConfigFile::backupPath(path));
        QFile::remove(ToolConfigFile::statePath(path));
        if (!bytes.isNull())
            writeFile(path, bytes);
        return path;
    }
    std::unique_ptr<QTemporaryDir> m_dir = std::make_unique<QTemporaryDir>();
};

void TestToolConfigApply::codexKeepsEveryOtherByte_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("ownLogin");
    // Comments, other providers, profiles, a multi-line string holding "[model_providers.aile]",
    // an array over several lines: all kept; model replaced, model_provider added.
    QTest::newRow("a user's config.toml") << "codex-config.toml"
                                          << "codex-config.applied.toml" << false;
    // Aile's old table and its sub-table replaced, CRLF line endings kept, the comment after stays.
    QTest::newRow("an older Aile block, CRLF") << "codex-aile-present.toml"
                                               << "codex-aile-present.applied.toml" << true;
}

void TestToolConfigApply::codexKeepsEveryOtherByte()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QFETCH(bool, ownLogin);
    const QString path = tempFile(QStringLiteral("config.toml"), sample(input));
    const ToolConfigFile::Preview p = ToolConfigFile::preview(setup(Tool::Codex, QStringLiteral("codex/gpt-5.5"), ownLogin), path);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(QString::fromUtf8(p.after), QString::fromUtf8(sample(expected)));
    QVERIFY(ToolConfigFile::apply(p).ok);
    QCOMPARE(readFile(path), sample(expected));
    QCOMPARE(readFile(ToolConfigFile::backupPath(path)), sample(input));
}

void TestToolConfigApply::claudeSetsOnlyItsEnvKeys()
{
    const QByteArray before = sample(QStringLiteral("claude-settings.json"));
    const QString path = tempFile(QStringLiteral("settings.json"), before);
    const ToolConfigFile::Preview p = ToolConfigFile::preview(setup(Tool::ClaudeCode, QStringLiteral("claude/claude-sonnet-5")), path);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QVERIFY(ToolConfigFile::apply(p).ok);
    QJsonObject expected = json(before);
    QJsonObject env = expected.value(QLatin1String("env")).toObject();
    env.remove(QStringLiteral("ANTHROPIC_AUTH_TOKEN")); // would replace Aile's key
    env.insert(QStringLiteral("ANTHROPIC_BASE_URL"), Base);
    env.insert(QStringLiteral("ANTHROPIC_API_KEY"), Key);
    env.insert(QStringLiteral("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"), QStringLiteral("1"));
    expected.insert(QStringLiteral("env"), env);
    QCOMPARE(json(readFile(path)), expected); // permissions, hooks, model, other env: all there

    // Another provider's model is named in full.
    const ToolConfigFile::Preview other = ToolConfigFile::preview(setup(Tool::ClaudeCode, QStringLiteral("openai/gpt-5.2")), path);
    QCOMPARE(json(other.after).value(QLatin1String("env")).toObject().value(QLatin1String("ANTHROPIC_MODEL")).toString(),
             QStringLiteral("openai/gpt-5.2"));
}

void TestToolConfigApply::claudeOwnLoginTakesTheKeyOutOfTheWay()
{
    const QString path = tempFile(QStringLiteral("settings.json"), sample(QStringLiteral("claude-settings.json")));
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::ClaudeCode, QStringLiteral("claude/claude-sonnet-5")), path)).ok);
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::ClaudeCode, QStringLiteral("claude/claude-sonnet-5"), true), path)).ok);
    const QJsonObject env = json(readFile(path)).value(QLatin1String("env")).toObject();
    QVERIFY(!env.contains(QLatin1String("ANTHROPIC_API_KEY"))); // it would replace the login
    QCOMPARE(env.value(QLatin1String("ANTHROPIC_CUSTOM_HEADERS")).toString(), QStringLiteral("x-aile-key: ") + Key);
    QCOMPARE(env.value(QLatin1String("MY_TEAM")).toString(), QStringLiteral("platform"));
}

void TestToolConfigApply::openCodeAddsItsProvider()
{
    const QByteArray before = sample(QStringLiteral("opencode.json"));
    const QString path = tempFile(QStringLiteral("opencode.json"), before);
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::OpenCode, QStringLiteral("openai/gpt-5.2")), path)).ok);
    const QJsonObject after = json(readFile(path));
    QCOMPARE(after.value(QLatin1String("model")).toString(), QStringLiteral("aile/openai/gpt-5.2"));
    const QJsonObject providers = after.value(QLatin1String("provider")).toObject();
    QCOMPARE(providers.value(QLatin1String("ollama")), json(before).value(QLatin1String("provider")).toObject().value(QLatin1String("ollama")));
    const QJsonObject options = providers.value(QLatin1String("aile")).toObject().value(QLatin1String("options")).toObject();
    QCOMPARE(options.value(QLatin1String("baseURL")).toString(), Base + QStringLiteral("/v1"));
    QCOMPARE(options.value(QLatin1String("apiKey")).toString(), Key);
    for (const QString &k : {QStringLiteral("$schema"), QStringLiteral("theme"), QStringLiteral("keybinds")})
        QCOMPARE(after.value(k), json(before).value(k));
}

void TestToolConfigApply::secondApplyWritesNothing_data()
{
    QTest::addColumn<int>("tool");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("model");
    QTest::newRow("codex") << int(Tool::Codex) << "codex-config.toml"
                           << "codex/gpt-5.5";
    QTest::newRow("claude-code") << int(Tool::ClaudeCode) << "claude-settings.json"
                                 << "claude/claude-sonnet-5";
    QTest::newRow("opencode") << int(Tool::OpenCode) << "opencode.json"
                              << "openai/gpt-5.2";
    QTest::newRow("codex, no file yet") << int(Tool::Codex) << ""
                                        << "codex/gpt-5.5";
}

void TestToolConfigApply::secondApplyWritesNothing()
{
    QFETCH(int, tool);
    QFETCH(QString, input);
    QFETCH(QString, model);
    const QString path = tempFile(QStringLiteral("second-apply"), input.isEmpty() ? QByteArray() : sample(input));
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool(tool), model), path)).ok);
    const QByteArray once = readFile(path);
    const QByteArray state = readFile(ToolConfigFile::statePath(path));
    const ToolConfigFile::Preview again = ToolConfigFile::preview(setup(Tool(tool), model), path);
    QVERIFY(!again.changes());
    QVERIFY(again.diff.isEmpty());
    const ToolConfigFile::Result r = ToolConfigFile::apply(again);
    QVERIFY(r.ok);
    QVERIFY2(r.message.contains(QLatin1String("nothing was written")), qPrintable(r.message));
    QCOMPARE(readFile(path), once);
    QCOMPARE(readFile(ToolConfigFile::statePath(path)), state);
}

void TestToolConfigApply::undoRestoresTheExactBytes_data()
{
    QTest::addColumn<int>("tool");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("model");
    QTest::newRow("codex") << int(Tool::Codex) << "codex-config.toml"
                           << "codex/gpt-5.5";
    QTest::newRow("codex, CRLF") << int(Tool::Codex) << "codex-aile-present.toml"
                                 << "codex/gpt-5.5";
    QTest::newRow("claude-code (re-indented by apply)") << int(Tool::ClaudeCode) << "claude-settings.json"
                                                        << "claude/claude-sonnet-5";
    QTest::newRow("opencode") << int(Tool::OpenCode) << "opencode.json"
                              << "openai/gpt-5.2";
}

void TestToolConfigApply::undoRestoresTheExactBytes()
{
    QFETCH(int, tool);
    QFETCH(QString, input);
    QFETCH(QString, model);
    const QByteArray before = sample(input);
    const QString path = tempFile(QStringLiteral("undo"), before);
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup);
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool(tool), model), path)).ok);
    QVERIFY(readFile(path) != before);
    QVERIFY(ToolConfigFile::canUndo(path));
    const ToolConfigFile::Preview back = ToolConfigFile::undoPreview(path);
    QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
    QVERIFY(!back.diff.contains(Key)); // the diff masks the key it takes out
    const ToolConfigFile::Result r = ToolConfigFile::undo(path);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(readFile(path), before);
    QCOMPARE(mode(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup);
    QVERIFY(!QFile::exists(ToolConfigFile::backupPath(path)));
    QVERIFY(!QFile::exists(ToolConfigFile::statePath(path)));
    QVERIFY(!ToolConfigFile::canUndo(path));
    const ToolConfigFile::Result twice = ToolConfigFile::undo(path);
    QVERIFY(!twice.ok);
    QVERIFY2(twice.message.contains(QLatin1String("nothing to restore")), qPrintable(twice.message));
}

void TestToolConfigApply::undoOfACreatedFileRemovesIt()
{
    const QString path = tempFile(QStringLiteral("created.json"), QByteArray());
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::ClaudeCode, QStringLiteral("claude/claude-sonnet-5")), path)).ok);
    QVERIFY(QFile::exists(path));
    // A file holding a key is the owner's only.
    QCOMPARE(mode(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const ToolConfigFile::Result r = ToolConfigFile::undo(path);
    QVERIFY2(r.ok, qPrintable(r.message));
    QVERIFY(!QFile::exists(path));
}

void TestToolConfigApply::undoRefusesWhenTheFileChanged()
{
    const QString path = tempFile(QStringLiteral("changed.toml"), sample(QStringLiteral("codex-config.toml")));
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::Codex, QStringLiteral("codex/gpt-5.5")), path)).ok);
    const QByteArray edited = readFile(path) + "\n[history]\npersistence = \"none\"\n";
    writeFile(path, edited);
    const ToolConfigFile::Result r = ToolConfigFile::undo(path);
    QVERIFY(!r.ok);
    QVERIFY2(r.message.contains(QLatin1String("changed since Aile applied")), qPrintable(r.message));
    QVERIFY2(r.message.contains(ToolConfigFile::backupPath(path)), qPrintable(r.message));
    QCOMPARE(readFile(path), edited); // the user's change is not lost
    QCOMPARE(readFile(ToolConfigFile::backupPath(path)), sample(QStringLiteral("codex-config.toml")));
}

void TestToolConfigApply::reapplyKeepsTheFirstBackup()
{
    const QByteArray original = sample(QStringLiteral("codex-config.toml"));
    const QString path = tempFile(QStringLiteral("reapply.toml"), original);
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::Codex, QStringLiteral("codex/gpt-5.5")), path)).ok);
    QVERIFY(ToolConfigFile::apply(ToolConfigFile::preview(setup(Tool::Codex, QStringLiteral("openai/gpt-5.2")), path)).ok);
    QVERIFY(readFile(path).contains("model = \"openai/gpt-5.2\""));
    QVERIFY(ToolConfigFile::undo(path).ok);
    QCOMPARE(readFile(path), original);
}

void TestToolConfigApply::unsafeFilesAreRefused_data()
{
    QTest::addColumn<int>("tool");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("why");
    QTest::newRow("codex: the provider as dotted keys")
        << int(Tool::Codex) << QByteArray("model_providers.aile.base_url = \"x\"\n") << "defined as a key";
    QTest::newRow("codex: an inline table") << int(Tool::Codex) << QByteArray("[model_providers]\naile = { base_url = \"x\" }\n")
                                            << "defined as a key";
    QTest::newRow("codex: a string left open") << int(Tool::Codex) << QByteArray("model = \"o3\n") << "not closed";
    QTest::newRow("opencode: JSON with comments") << int(Tool::OpenCode) << sample(QStringLiteral("opencode-with-comments.jsonc"))
                                                  << "not plain JSON";
    QTest::newRow("claude-code: env is a string") << int(Tool::ClaudeCode) << QByteArray("{\"env\": \"x\"}") << "not an object";
}

void TestToolConfigApply::unsafeFilesAreRefused()
{
    QFETCH(int, tool);
    QFETCH(QByteArray, content);
    QFETCH(QString, why);
    const QString path = tempFile(QStringLiteral("unsafe"), content);
    const ToolConfigFile::Preview p = ToolConfigFile::preview(setup(Tool(tool), QStringLiteral("openai/gpt-5.2")), path);
    QVERIFY2(p.error.contains(why), qPrintable(p.error));
    QVERIFY(!p.changes());
    QVERIFY(!ToolConfigFile::apply(p).ok);
    QCOMPARE(readFile(path), content);
    QVERIFY(!QFile::exists(ToolConfigFile::backupPath(path)));
}

void TestToolConfigApply::previewMasksTheKey()
{
    const QString path = tempFile(QStringLiteral("masked.toml"), sample(QStringLiteral("codex-config.toml")));
    const ToolConfigFile::Preview p = ToolConfigFile::preview(setup(Tool::Codex, QStringLiteral("codex/gpt-5.5")), path);
    QVERIFY(p.after.contains(Key.toUtf8())); // the file gets the key ...
    QVERIFY(!p.diff.contains(Key));          // ... the preview shows only its start
    QVERIFY(p.diff.contains(QStringLiteral("+experimental_bearer_token = \"sk-aile-0011…\"")));
    QVERIFY(p.diff.contains(QStringLiteral("-model = \"o3\"   # the model I use most\n+model = \"gpt-5.5\"\n")));
    QVERIFY(!p.diff.contains(QStringLiteral("profiles.fast"))); // far from any change
}

void TestToolConfigApply::pathsFollowTheToolsVariables()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), QStringLiteral("/home/u"));
    QCOMPARE(ToolConfigFile::path(Tool::ClaudeCode, env), QStringLiteral("/home/u/.claude/settings.json"));
    QCOMPARE(ToolConfigFile::path(Tool::Codex, env), QStringLiteral("/home/u/.codex/config.toml"));
    QCOMPARE(ToolConfigFile::path(Tool::OpenCode, env), QStringLiteral("/home/u/.config/opencode/opencode.json"));
    env.insert(QStringLiteral("CODEX_HOME"), QStringLiteral("/tmp/ch"));
    env.insert(QStringLiteral("CLAUDE_CONFIG_DIR"), QStringLiteral("/tmp/cc"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QStringLiteral("/tmp/xdg"));
    QCOMPARE(ToolConfigFile::path(Tool::Codex, env), QStringLiteral("/tmp/ch/config.toml"));
    QCOMPARE(ToolConfigFile::path(Tool::ClaudeCode, env), QStringLiteral("/tmp/cc/settings.json"));
    QCOMPARE(ToolConfigFile::path(Tool::OpenCode, env), QStringLiteral("/tmp/xdg/opencode/opencode.json"));
    env.insert(QStringLiteral("OPENCODE_CONFIG"), QStringLiteral("/tmp/mine.json"));
    QCOMPARE(ToolConfigFile::path(Tool::OpenCode, env), QStringLiteral("/tmp/mine.json"));
    QVERIFY(ToolConfigFile::path(Tool::OpenAiSdk, env).isEmpty());
}

void TestToolConfigApply::diffShowsOnlyTheChange()
{
    QCOMPARE(unifiedDiff(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nB\nc\n"), QStringLiteral("x"), QStringLiteral("y")),
             QStringLiteral("--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"));
    QCOMPARE(unifiedDiff(QString(), QStringLiteral("new\n"), QStringLiteral("/dev/null"), QStringLiteral("y")),
             QStringLiteral("--- /dev/null\n+++ y\n@@ -0,0 +1,1 @@\n+new\n"));
    QVERIFY(unifiedDiff(QStringLiteral("same\n"), QStringLiteral("same\n"), QString(), QString()).isEmpty());
}

QTEST_GUILESS_MAIN(TestToolConfigApply)
#include "TestToolConfigApply.moc"
