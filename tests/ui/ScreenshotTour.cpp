// aile-ui-screenshots: renders each view of the desktop app against a real engine, the fake
// upstream and a seeded store, and saves PNGs. docs/screenshots/render.sh runs it under Xvfb.
//
//   aile-ui-screenshots --out DIR [--dark] [--lang fr]
#include "ScreenshotAttached.h"
#include "ScreenshotData.h"
#include "ScreenshotGetStarted.h"
#include "host/EngineHost.h"
#include "dialogs/ConnectToolDialog.h"
#include "dialogs/SharerDialog.h"
#include "keys/KeyRoutesPanel.h"
#include "keys/KeyRoutingDialog.h"
#include "keys/KeysModel.h"
#include "keys/KeysView.h"
#include "keys/NewKeyDialog.h"
#include "keys/RouteDialog.h"
#include "keys/RouteTargetsTable.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/Translations.h"
#include "charts/ChartsView.h"
#include "sharers/SharerOrderModel.h"
#include "sharers/SharersView.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"
#include "traces/TraceTableModel.h"
#include "traces/TracesView.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStyleFactory>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>

using namespace Aile;

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2d, 0x2d, 0x30), base(0x1e, 0x1e, 0x1e), text(0xe8, 0xe8, 0xe8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x27, 0x2a));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3d));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x54));
    p.setColor(QPalette::Midlight, QColor(0x3e, 0x3e, 0x42));
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5a, 0x5e));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x7d, 0xd1));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x5a, 0xa9, 0xff));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

QByteArray chatBody(const QString &model, bool stream)
{
    QJsonObject body{{QStringLiteral("model"), model},
                     {QStringLiteral("max_tokens"), 200},
                     {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                         {QStringLiteral("content"), QStringLiteral("Refactor this function")}}}}};
    if (stream)
        body.insert(QStringLiteral("stream"), true);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

bool save(QWidget *w, const QString &dir, const QString &name)
{
    QTest::qWait(400); // let layouts, charts and the table settle
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = w->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "FAILED ") << path << '\n';
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    // The same pictures on every machine: no keychain answers (a session bus that does not exist),
    // and the user opted in to the plain-text secrets file, so the Sharers page shows its banner.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/aile-screenshots");
    QApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("aile.*.debug=false"));
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("out"), QStringLiteral("Where the PNG files go."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("dark"), QStringLiteral("Render with a dark palette.")});
    parser.addOption({QStringLiteral("lang"), QStringLiteral("fr for the French translation."), QStringLiteral("LANG")});
    parser.addOption({QStringLiteral("get-started"), QStringLiteral("Only the Get started checklist, on an empty data folder.")});
    parser.addOption(
        {QStringLiteral("attached"), QStringLiteral("Only the window attached to a running aile serve (this program)."), QStringLiteral("AILE")});
    parser.process(app);
    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty() || !QDir().mkpath(out)) {
        qCritical("aile-ui-screenshots: give --out DIR");
        return 2;
    }
    const bool dark = parser.isSet(QStringLiteral("dark"));
    const bool french = parser.value(QStringLiteral("lang")) == QLatin1String("fr");
    const QString suffix = dark ? QStringLiteral("-dark") : french ? QStringLiteral("-fr") : QString();

    // The same look on every machine: Fusion, a fixed locale, and the palette asked for.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
    const QLocale locale = french ? QLocale(QLocale::French, QLocale::France) : QLocale(QLocale::English, QLocale::UnitedStates);
    QLocale::setDefault(locale);
    if (french)
        Ui::installTranslations(&app, locale);

    if (parser.isSet(QStringLiteral("get-started")))
        return Test::renderGetStarted(out, suffix);
    if (parser.isSet(QStringLiteral("attached")))
        return Test::renderAttached(out, parser.value(QStringLiteral("attached")));

    QTemporaryDir dir;
    Test::FakeUpstream upstream;
    if (!upstream.listen())
        return 1;
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    QFile config(configPath);
    if (!config.open(QIODevice::WriteOnly))
        return 1;
    config.write(QJsonDocument(Test::ScreenshotData::config(upstream.baseUrl())).toJson());
    config.close();
    const QString dataDir = dir.filePath(QStringLiteral("data"));
    QString error;
    if (!Test::ScreenshotData::seedStore(dataDir, QDateTime::currentMSecsSinceEpoch(), &error)) {
        qCritical("cannot seed the store: %s", qPrintable(error));
        return 1;
    }

    EngineOptions options;
    options.dataDir = dataDir;
    options.port = 0;
    options.configPath = configPath;
    // In a home folder of its own, so the banner reads ~/.local/share/aile/secrets.json everywhere.
    qputenv("HOME", QFile::encodeName(dir.path()));
    QDir(dir.path()).mkpath(QStringLiteral(".local/share/aile"));
    options.fileSecretsPath = dir.filePath(QStringLiteral(".local/share/aile/secrets.json"));
    EngineHost host(options);
    Ui::MainWindow::Options windowOptions;
    windowOptions.dataDir = dataDir;
    windowOptions.configPath = configPath;
    windowOptions.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
    windowOptions.showTrayIcon = false;
    Ui::MainWindow window(&host, windowOptions);
    window.resize(1360, 860);
    window.show();
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    if (!started.wait(10000)) {
        qCritical("the engine did not start");
        return 1;
    }

    // A few live requests: one fails over from a rate-limited account to the next.
    const QList<QPair<QByteArray, QByteArray>> laptop{{"authorization", QByteArray("Bearer ") + Test::ScreenshotData::LaptopKey}};
    upstream.enqueue(Test::FakeUpstream::error(429, QStringLiteral("rate limited"), false, 20));
    Test::send(QStringLiteral("POST"), window.baseUrl() + QStringLiteral("/v1/chat/completions"), chatBody(QStringLiteral("openai/gpt-5.2"), false),
               laptop);
    Test::send(QStringLiteral("POST"), window.baseUrl() + QStringLiteral("/v1/messages"), chatBody(QStringLiteral("claude/claude-sonnet-5"), true),
               {{"x-api-key", Test::ScreenshotData::LaptopKey}, {"anthropic-version", "2023-06-01"}});
    Test::send(QStringLiteral("POST"), window.baseUrl() + QStringLiteral("/v1/chat/completions"), chatBody(QStringLiteral("openai/gpt-5.2"), true),
               {{"authorization", QByteArray("Bearer ") + Test::ScreenshotData::CiKey}});
    QTest::qWait(500);

    bool ok = true;
    if (!dark && !french) {
        // A third OpenAI account added as a user would (its key in the opted-in file), a model
        // tested on it, and the page showing the routing order for that model.
        const QList<QPair<QByteArray, QByteArray>> admin{{"authorization", "Bearer screenshot-admin-token"}};
        const QJsonObject spare{{QStringLiteral("handle"), QStringLiteral("L5a7e0b1c2d3e4f50")},
                                {QStringLiteral("name"), QStringLiteral("Spare OpenAI")},
                                {QStringLiteral("provider"), QStringLiteral("openai")},
                                {QStringLiteral("baseUrl"), upstream.baseUrl()},
                                {QStringLiteral("models"), QJsonArray{QStringLiteral("gpt-5.2")}},
                                {QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 60}}},
                                {QStringLiteral("secret"), QStringLiteral("upstream-secret")},
                                {QStringLiteral("credential"), QStringLiteral("file:")}};
        Test::send(QStringLiteral("POST"), window.baseUrl() + QStringLiteral("/sharers"), QJsonDocument(spare).toJson(), admin);
        Test::send(QStringLiteral("POST"), window.baseUrl() + QStringLiteral("/sharers/L5a7e0b1c2d3e4f50/test"), "{\"model\":\"gpt-5.2\"}", admin);
        window.tabs()->setCurrentIndex(0);
        Ui::SharersView *sharers = window.sharersView();
        QSignalSpy listed(sharers, &Ui::SharersView::listed);
        window.findChild<QLineEdit *>(QStringLiteral("sharersModelFilter"))->setText(QStringLiteral("openai/gpt-5.2"));
        sharers->refresh();
        listed.wait(5000);
        sharers->selectHandle(sharers->model()->row(0).handle);
        ok = save(&window, out, QStringLiteral("sharers")) && ok;

        // The Add dialog, filled in.
        QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("addSharerButton")), Qt::LeftButton);
        QTest::qWait(100);
        if (auto *dialog = sharers->findChild<Ui::SharerDialog *>()) {
            dialog->findChild<QLineEdit *>(QStringLiteral("sharerName"))->setText(QStringLiteral("Laptop OpenAI"));
            dialog->selectProvider(QStringLiteral("openai"));
            dialog->findChild<QComboBox *>(QStringLiteral("sharerPriceMode"))->setCurrentIndex(1);
            dialog->findChild<QDoubleSpinBox *>(QStringLiteral("sharerPercent"))->setValue(70);
            dialog->findChild<QLineEdit *>(QStringLiteral("sharerModels"))->setText(QStringLiteral("gpt-5.2, gpt-5.5"));
            dialog->findChild<QLineEdit *>(QStringLiteral("sharerSecret"))->setText(QStringLiteral("sk-example"));
            dialog->adjustSize();
            ok = save(dialog, out, QStringLiteral("sharer-dialog")) && ok;
            dialog->reject();
        } else {
            ok = false;
        }
    }
    // The traces page with the failover's attempts in the detail pane.
    window.tabs()->setCurrentWidget(window.tracesView());
    Ui::TraceTableModel *model = window.tracesView()->model();
    (void)QTest::qWaitFor([model] { return !model->isReading() && model->rowCount() > 0; }, 5000); // read off the GUI thread
    int failoverRow = 0;
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->trace(row).attempts > 1) {
            failoverRow = row;
            break;
        }
    window.tracesView()->table()->setCurrentIndex(model->index(failoverRow, 0));
    ok = save(&window, out, QStringLiteral("traces") + suffix) && ok;

    if (!french) {
        QSignalSpy drawn(window.chartsView(), &Ui::ChartsView::drawn);
        window.tabs()->setCurrentIndex(2);
        if (drawn.isEmpty())
            drawn.wait(3000); // the figures are summed on the store reader's thread
        ok = save(&window, out, QStringLiteral("charts") + suffix) && ok;
    }
    if (!dark) {
        // The Keys page: a key made here (its dialog shows it once), one revoked, and the ci key's routing.
        window.tabs()->setCurrentWidget(window.keysView());
        Ui::KeysView *keys = window.keysView();
        QSignalSpy listed(keys, &Ui::KeysView::listed);
        keys->refresh();
        listed.wait(5000);
        Ui::NewKeyDialog *newKey = keys->newKey();
        newKey->setKeyName(QStringLiteral("claude-code"));
        QSignalSpy created(newKey, &Ui::NewKeyDialog::created);
        newKey->create();
        created.wait(5000);
        if (!french)
            ok = save(newKey, out, QStringLiteral("new-key")) && ok;
        newKey->close();
        QSignalSpy replied(&host, &EngineHost::managementReplied);
        host.manage(QStringLiteral("POST"), QStringLiteral("/keys"), QByteArrayLiteral("{\"name\":\"old-laptop\"}"));
        replied.wait(5000);
        const QString oldId = QJsonDocument::fromJson(replied.value(0).value(2).toByteArray())
                                  .object()
                                  .value(QLatin1String("key"))
                                  .toObject()
                                  .value(QLatin1String("id"))
                                  .toString();
        host.manage(QStringLiteral("DELETE"), QStringLiteral("/keys/") + oldId);
        replied.wait(5000);
        keys->refresh();
        listed.wait(5000);
        auto selectKey = [keys](const char *name) {
            for (int row = 0; row < keys->model()->rowCount(); ++row)
                if (keys->model()->key(row).name == QLatin1String(name))
                    keys->selectKey(keys->model()->key(row).id);
        };
        // The laptop key with its routes under the list, then the coding route's dialog.
        selectKey("laptop");
        keys->routesPanel()->selectRoute(QStringLiteral("coding"));
        if (!french)
            ok = save(&window, out, QStringLiteral("keys")) && ok;
        if (Ui::RouteDialog *route = keys->routesPanel()->editRoute()) {
            QSignalSpy loaded(route, &Ui::RouteDialog::loaded);
            loaded.wait(5000);
            route->targets()->selectRow(0);
            ok = save(route, out, QStringLiteral("route-dialog") + suffix) && ok;
            route->close();
        } else {
            ok = false;
        }
        selectKey("ci");
        Ui::KeyRoutingDialog *routing = keys->editRouting();
        if (routing) {
            QSignalSpy loaded(routing, &Ui::KeyRoutingDialog::loaded);
            loaded.wait(5000);
            ok = save(routing, out, QStringLiteral("key-routing") + suffix) && ok;
            routing->close();
        }

        Ui::ConnectToolDialog *dialog = window.connectToolDialog();
        dialog->selectTool(Ui::ClientSnippets::Tool::Codex);
        dialog->findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(QStringLiteral("openai/gpt-5.2"));
        dialog->show();
        QSignalSpy tested(dialog, &Ui::ConnectToolDialog::testFinished);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
        tested.wait(5000);
        ok = save(dialog, out, QStringLiteral("connect-tool") + suffix) && ok;
        dialog->hide();
    }

    QSignalSpy stopped(&host, &EngineHost::stopped);
    window.close();
    stopped.wait(5000);
    return ok ? 0 : 1;
}
