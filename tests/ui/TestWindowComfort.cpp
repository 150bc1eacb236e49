// Everyday comfort without an engine: the window remembers its size, page and splitter; every
// control has an accessible name (the sharer dialog's too); the keyboard reaches every page and
// the search field.
#include "api/values/JsonFields.h"
#include "host/EngineHost.h"
#include "common/ManagementClient.h"
#include "dialogs/ConnectToolDialog.h"
#include "dialogs/SharerDialog.h"
#include "keys/KeyRoutingDialog.h"
#include "keys/NewKeyDialog.h"
#include "keys/KeysView.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/StatusBanner.h"
#include "traces/TracesView.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtGui/QAccessible>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTabWidget>

using namespace Aile;

namespace {

// What a screen reader would announce for the widget: its accessible name, its text, or the
// label that is its buddy.
QStringList unnamedControls(QWidget *root)
{
    QStringList out;
    const QList<QWidget *> widgets = root->findChildren<QWidget *>();
    for (QWidget *w : widgets) {
        if (!w->isVisibleTo(root) || !(w->focusPolicy() & Qt::TabFocus))
            continue;
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        if (!iface || iface->text(QAccessible::Name).trimmed().isEmpty())
            out << QStringLiteral("%1 \"%2\" in %3 \"%4\"")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                            QString::fromLatin1(w->parentWidget()->metaObject()->className()), w->parentWidget()->objectName());
    }
    return out;
}

} // namespace

class TestWindowComfort : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::unique_ptr<Ui::MainWindow> makeWindow(EngineHost &host)
    {
        Ui::MainWindow::Options options;
        options.dataDir = m_dir.filePath(QStringLiteral("data"));
        options.settingsPath = m_dir.filePath(QStringLiteral("settings.ini"));
        options.showTrayIcon = false;
        return std::make_unique<Ui::MainWindow>(&host, options);
    }

    EngineOptions engineOptions() const
    {
        EngineOptions o;
        o.dataDir = m_dir.filePath(QStringLiteral("data"));
        return o;
    }

private Q_SLOTS:
    void theWindowRemembersItsSizePageAndSplitter()
    {
        QByteArray splitterState;
        {
            EngineHost host(engineOptions()); // never started: stop() answers at once
            auto window = makeWindow(host);
            window->show();
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            window->resize(1010, 690);
            window->tabs()->setCurrentIndex(2);
            auto *splitter = window->findChild<QSplitter *>(QStringLiteral("tracesSplitter"));
            splitter->setSizes({300, 200});
            splitterState = splitter->saveState();
            QSignalSpy stopped(&host, &EngineHost::stopped);
            QVERIFY(window->close());
            QCOMPARE(stopped.count(), 1);
        }
        EngineHost host(engineOptions());
        auto window = makeWindow(host);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCOMPARE(window->size(), QSize(1010, 690));
        QCOMPARE(window->tabs()->currentIndex(), 2);
        QCOMPARE(window->findChild<QSplitter *>(QStringLiteral("tracesSplitter"))->saveState(), splitterState);
    }

    void everyControlHasAnAccessibleName()
    {
        EngineHost host(engineOptions());
        auto window = makeWindow(host);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        for (int page = 0; page < window->tabs()->count(); ++page) {
            window->tabs()->setCurrentIndex(page);
            const QStringList unnamed = unnamedControls(window.get());
            QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
        }
        Ui::ConnectToolDialog *dialog = window->connectToolDialog();
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        for (Ui::ClientSnippets::Tool tool : Ui::ClientSnippets::tools()) {
            dialog->selectTool(tool);
            const QStringList unnamed = unnamedControls(dialog);
            QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
        }
        // The sharer dialog, in each price mode and with a custom provider's extra field.
        Ui::ManagementClient client(&host);
        Ui::SharerDialog sharer(&client, {}, {}, {}, window.get());
        sharer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&sharer));
        sharer.selectProvider(QStringLiteral("custom:openai"));
        for (int mode = 0; mode < 3; ++mode) {
            sharer.findChild<QComboBox *>(QStringLiteral("sharerPriceMode"))->setCurrentIndex(mode);
            const QStringList unnamed = unnamedControls(&sharer);
            QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
        }
    }

    void theKeyDialogsNameEveryControl()
    {
        Ui::ManagementClient client(nullptr);
        Ui::KeyRoutingDialog routing(&client);
        routing.setSharers(
            Api::Json::listOf<Api::SharerStatus>(QJsonArray{QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000000a1")},
                                                                        {QStringLiteral("name"), QStringLiteral("openai-one")},
                                                                        {QStringLiteral("provider"), QStringLiteral("openai")}}}));
        // The legacy switch shows only while it is on: on here, so that it is checked too.
        Api::KeyRoutingValue legacy;
        legacy.bareModelAnyProvider = true;
        routing.setRouting(legacy);
        routing.show();
        QVERIFY(QTest::qWaitForWindowExposed(&routing));
        QStringList unnamed = unnamedControls(&routing);
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
        Ui::NewKeyDialog newKey(&client);
        newKey.show();
        QVERIFY(QTest::qWaitForWindowExposed(&newKey));
        unnamed = unnamedControls(&newKey);
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
    }

    void theKeyboardReachesEveryPageAndTheSearch()
    {
        EngineHost host(engineOptions());
        auto window = makeWindow(host);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        window->activateWindow();
        QTest::keyClick(window.get(), Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(window->tabs()->currentIndex(), 0);
        QTest::keyClick(window.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window->tabs()->currentIndex(), 2);
        QTest::keyClick(window.get(), Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(window->tabs()->currentWidget(), window->keysView());
        QTest::keyClick(window.get(), Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(window->tabs()->currentWidget(), window->tracesView());
        auto *search = window->findChild<QLineEdit *>(QStringLiteral("filterText"));
        QTRY_COMPARE(QApplication::focusWidget(), search);
        // Tab walks from the search field through the other controls to the table.
        QWidget *table = window->findChild<QWidget *>(QStringLiteral("tracesTable"));
        bool reached = false;
        for (int i = 0; i < 12 && !reached; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            reached = QApplication::focusWidget() == table;
        }
        QVERIFY(reached);
    }

    void aFailedStartSaysWhy()
    {
        EngineOptions options; // no data directory: the engine refuses to start
        options.port = 0;
        EngineHost host(options);
        auto window = makeWindow(host);
        host.start();
        QTRY_COMPARE(window->banner()->state(), Ui::ProxyState::Failed);
        QVERIFY2(window->banner()->stateText().startsWith(QLatin1String("Proxy failed to start: ")), qPrintable(window->banner()->stateText()));
        QVERIFY(window->baseUrl().isEmpty());
        QSignalSpy stopped(&host, &EngineHost::stopped);
        window->close();
        QTRY_COMPARE(stopped.count(), 1);
    }
};

QTEST_MAIN(TestWindowComfort)
#include "TestWindowComfort.moc"
