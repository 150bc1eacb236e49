// Issue 17, seeing the subscriptions (docs/subscriptions.md "Seeing it"): the tray lists each
// subscription's windows and where each tool's next request goes; notifications at 80% of a
// window, when it is used up (naming where traffic moved and at what price) and when it resets;
// the Sharers view draws the windows as bars; Connect a tool writes the own-login settings.
// AILE_SHOTS=<folder> saves the screenshots docs/subscriptions.md shows.
#include "api/values/JsonFields.h"
#include "dialogs/ConnectToolDialog.h"
#include "mainwindow/SubscriptionWatch.h"
#include "mainwindow/TrayIcon.h"
#include "api/values/SharerRow.h"
#include "sharers/QuotaBarDelegate.h"
#include "sharers/SharerOrderModel.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QMenu>
#include <QtWidgets/QTableView>

using namespace Aile;
using namespace Aile::Ui;

namespace {

constexpr qint64 Now = 1'800'000'000'000;
constexpr qint64 Hour = 3600 * 1000;

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

QJsonObject window(const QString &name, double used, qint64 resetMs, bool exhausted = false)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("kind"), QStringLiteral("subscription")},
                       {QStringLiteral("used"), used},
                       {QStringLiteral("exhausted"), exhausted},
                       {QStringLiteral("fresh"), true},
                       {QStringLiteral("resetsAt"), iso(resetMs)},
                       {QStringLiteral("lengthSeconds"), name == QLatin1String("5h") ? 5 * 3600 : 7 * 86400}};
}

// GET /sharers rows (no model named): the subscription in tier 10, the API key below it.
QJsonArray listing(double used5h, bool exhausted = false)
{
    const QJsonObject max{{QStringLiteral("handle"), QStringLiteral("L00000000000005b1")},
                          {QStringLiteral("name"), QStringLiteral("Claude Max")},
                          {QStringLiteral("provider"), QStringLiteral("claude")},
                          {QStringLiteral("kind"), QStringLiteral("subscription")},
                          {QStringLiteral("priority"), 10},
                          {QStringLiteral("available"), true},
                          {QStringLiteral("quota"), QJsonArray{window(QStringLiteral("5h"), used5h, Now + 2 * Hour, exhausted),
                                                               window(QStringLiteral("7d"), 0.31, Now + 80 * Hour)}}};
    const QJsonObject key{{QStringLiteral("handle"), QStringLiteral("L000000000000a9e1")},
                          {QStringLiteral("name"), QStringLiteral("Anthropic API key")},
                          {QStringLiteral("provider"), QStringLiteral("claude")},
                          {QStringLiteral("kind"), QStringLiteral("api-key")},
                          {QStringLiteral("available"), true},
                          {QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 100}}},
                          {QStringLiteral("quota"), QJsonArray{}}};
    const QJsonObject plus{{QStringLiteral("handle"), QStringLiteral("L00000000000005c1")},
                           {QStringLiteral("name"), QStringLiteral("ChatGPT Pro")},
                           {QStringLiteral("provider"), QStringLiteral("codex")},
                           {QStringLiteral("kind"), QStringLiteral("subscription")},
                           {QStringLiteral("priority"), 10},
                           {QStringLiteral("available"), true},
                           {QStringLiteral("quota"), QJsonArray{window(QStringLiteral("primary"), 0.12, Now + 4 * Hour),
                                                                window(QStringLiteral("secondary"), 0.55, Now + 100 * Hour)}}};
    return QJsonArray{max, key, plus};
}

void shoot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("AILE_SHOTS");
    if (!dir.isEmpty())
        QVERIFY(w->grab().save(dir + QLatin1Char('/') + name));
}

} // namespace

class TestSubscriptionViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theTrayListsEachWindowAndWhereEachToolGoes()
    {
        SubscriptionWatch watch;
        TrayIcon tray;
        connect(&watch, &SubscriptionWatch::linesChanged, &tray, &TrayIcon::setSubscriptionLines);
        watch.noteListing(listing(0.42), Now);
        const QStringList lines = tray.subscriptionLines();
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines.at(0), QStringLiteral("Claude Max — 5h 42%, resets in 2 h 0 min · 7d 31%, resets in 3 d 8 h"));
        QCOMPARE(lines.at(1), QStringLiteral("ChatGPT Pro — primary 12%, resets in 4 h 0 min · secondary 55%, resets in 4 d 4 h"));
        QCOMPARE(lines.at(2), QStringLiteral("Claude Code's next request → Claude Max (subscription)"));
        QVERIFY2(lines.at(3).startsWith(QStringLiteral("Codex's next request → ChatGPT Pro")), qPrintable(lines.at(3)));
        // In the menu, above its commands, as readings (disabled).
        QMenu *menu = tray.contextMenu();
        QCOMPARE(menu->actions().first()->text(), lines.at(0));
        QVERIFY(!menu->actions().first()->isEnabled());
        QCOMPARE(menu->actions().at(lines.size())->isSeparator(), true);
        menu->adjustSize();
        shoot(menu, QStringLiteral("tray-subscriptions.png"));

        // Used up: the Claude Code line names the API key.
        watch.noteListing(listing(1.0, true), Now + Hour);
        QVERIFY2(tray.subscriptionLines().at(0).contains(QStringLiteral("5h used up, back in 1 h 0 min")),
                 qPrintable(tray.subscriptionLines().at(0)));
        QVERIFY(tray.subscriptionLines().at(2).startsWith(QStringLiteral("Claude Code's next request → Anthropic API key")));
        watch.noteListing({}, Now + Hour);
        QVERIFY(tray.subscriptionLines().isEmpty());
        QCOMPARE(menu->actions().first()->text(), QStringLiteral("Show Aile"));
    }

    void notificationsAt80PercentAtExhaustionAndAtTheReset()
    {
        SubscriptionWatch watch;
        QList<QPair<QString, QString>> said;
        watch.setNotifier([&](const QString &title, const QString &message) { said.append({title, message}); });
        watch.noteListing(listing(0.5), Now);
        QVERIFY(said.isEmpty());
        watch.noteListing(listing(0.84), Now + 10 * 60 * 1000);
        QCOMPARE(said.size(), 1);
        QCOMPARE(said.last().first, QStringLiteral("Claude Max: 5h window at 84%"));
        watch.noteListing(listing(0.9), Now + 20 * 60 * 1000);
        QCOMPARE(said.size(), 1); // said once per window
        watch.noteListing(listing(1.0, true), Now + Hour);
        QCOMPARE(said.size(), 2);
        QCOMPARE(said.last().first, QStringLiteral("Claude Max is used up"));
        QVERIFY2(said.last().second.contains(QStringLiteral("Requests move to Anthropic API key (100% of list price) until it resets.")),
                 qPrintable(said.last().second));
        watch.noteListing(listing(1.0, true), Now + Hour + 60 * 1000);
        QCOMPARE(said.size(), 2);
        watch.noteListing(listing(0.01), Now + 2 * Hour + 1000);
        QCOMPARE(said.size(), 3);
        QCOMPARE(said.last().first, QStringLiteral("Claude Max is back"));
        QCOMPARE(said.last().second, QStringLiteral("Its 5h window reset; requests go to it again."));
    }

    void theSharersViewDrawsTheWindowsAsBars()
    {
        QCOMPARE(QuotaBarDelegate::fills(listing(0.42).at(0).toObject().value(QLatin1String("quota")).toArray()), (QList<double>{0.42, 0.31}));
        QCOMPARE(QuotaBarDelegate::fills(listing(1.0, true).at(0).toObject().value(QLatin1String("quota")).toArray()).first(), 1.0);
        SharerOrderModel model;
        model.setRows(Api::SharerListing::fromJson(QJsonObject{{QStringLiteral("data"), listing(1.0, true)}}).rows);
        QTableView table;
        table.setModel(&model);
        table.setItemDelegateForColumn(SharerOrderModel::Quota, new QuotaBarDelegate(&table));
        for (int c = 0; c < SharerOrderModel::ColumnCount; ++c)
            table.setColumnHidden(c, c != SharerOrderModel::Name && c != SharerOrderModel::Provider && c != SharerOrderModel::Quota);
        table.verticalHeader()->hide();
        table.resize(900, 160);
        table.show();
        table.resizeColumnsToContents();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        const QRect cell = table.visualRect(model.index(0, SharerOrderModel::Quota));
        const QImage image = table.viewport()->grab().toImage();
        // The 5h bar, used up: red from its left end to its right end.
        int red = 0;
        for (int x = cell.left() + 4; x < cell.left() + 4 + QuotaBarDelegate::BarWidth; ++x)
            for (int y = cell.top(); y < cell.bottom(); ++y)
                if (image.pixelColor(x, y) == QColor(0xc6, 0x28, 0x28)) {
                    ++red;
                    break;
                }
        QCOMPARE(red, QuotaBarDelegate::BarWidth);
        // The API key has no windows: no bar, its text only.
        QVERIFY(model.index(1, SharerOrderModel::Quota).data(SharerOrderModel::WindowsRole).toJsonArray().isEmpty());
        shoot(&table, QStringLiteral("sharers-quota-bars.png"));
    }

    void connectAToolWritesTheOwnLoginSettings()
    {
        ConnectToolDialog dialog;
        dialog.setBaseUrl(QStringLiteral("http://127.0.0.1:2453"));
        dialog.setSharers(
            Api::Json::listOf<Api::SharerStatus>(QJsonArray{QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000005b1")},
                                                                        {QStringLiteral("provider"), QStringLiteral("claude")},
                                                                        {QStringLiteral("models"), QJsonArray{QStringLiteral("claude-sonnet-5")}}},
                                                            QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000005c1")},
                                                                        {QStringLiteral("provider"), QStringLiteral("codex")},
                                                                        {QStringLiteral("models"), QJsonArray{QStringLiteral("gpt-5.5")}}}}));
        dialog.setProviders(Api::Json::listOf<Api::ProviderStatus>(QJsonArray{
            QJsonObject{{QStringLiteral("id"), QStringLiteral("claude")}, {QStringLiteral("wires"), QJsonArray{QStringLiteral("messages")}}},
            QJsonObject{{QStringLiteral("id"), QStringLiteral("codex")}, {QStringLiteral("wires"), QJsonArray{QStringLiteral("responses")}}}}));
        dialog.selectTool(ClientSnippets::Tool::ClaudeCode);
        auto *own = dialog.findChild<QWidget *>(QStringLiteral("ownLogin"));
        QVERIFY(own);
        dialog.setOwnLogin(true);
        QString env = dialog.blockText(0);
        QVERIFY2(env.contains(QStringLiteral("export ANTHROPIC_CUSTOM_HEADERS='x-aile-key: ")), qPrintable(env));
        QVERIFY(env.contains(QStringLiteral("unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN")));
        QVERIFY(!env.contains(QStringLiteral("export ANTHROPIC_API_KEY")));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        shoot(&dialog, QStringLiteral("connect-tool-own-login.png"));

        dialog.selectTool(ClientSnippets::Tool::Codex);
        const QString toml = dialog.blockText(0);
        QVERIFY2(toml.contains(QStringLiteral("requires_openai_auth = true")), qPrintable(toml));
        QVERIFY(toml.contains(QStringLiteral("env_http_headers = { \"x-aile-key\" = \"AILE_KEY\" }")));
        QVERIFY(!toml.contains(QStringLiteral("env_key")));
        QVERIFY(own->isVisible());

        // Other tools have no login of their own to keep: the usual settings.
        dialog.selectTool(ClientSnippets::Tool::OpenAiSdk);
        QVERIFY(!own->isVisible());
        dialog.setOwnLogin(false);
        dialog.selectTool(ClientSnippets::Tool::ClaudeCode);
        QVERIFY(dialog.blockText(0).contains(QStringLiteral("export ANTHROPIC_API_KEY")));
    }
};

QTEST_MAIN(TestSubscriptionViews)
#include "TestSubscriptionViews.moc"
