// Get started: the checklist the window opens on until the user has a sharer, a key and one
// served request. Walked against a real engine (on its own thread, as in the app) and the fake
// upstream, from an empty store: each step ticks itself from what the engine reports.
#include "WindowUnderTest.h"
#include "host/EngineHost.h"
#include "dialogs/ConnectToolDialog.h"
#include "dialogs/SharerDialog.h"
#include "keys/NewKeyDialog.h"
#include "mainwindow/GetStartedPanel.h"
#include "mainwindow/MainWindow.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"
#include "sharers/SharersView.h"
#include "traces/TracesView.h"

#include <QtCore/QJsonArray>
#include <QtCore/QSettings>
#include <QtTest/QtTest>
#include <QtGui/QAction>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QToolButton>

using namespace Aile;
using namespace Aile::Test;
using Panel = Ui::GetStartedPanel;

class TestGetStarted : public QObject
{
    Q_OBJECT
private:
    static QPushButton *button(Panel *panel, const char *name) { return panel->findChild<QPushButton *>(QLatin1String(name)); }

private Q_SLOTS:
    void theChecklistWalksAnEmptyStoreToAnAnswer()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        WindowUnderTest w;
        // Nothing but the admin token (for the test's own calls): no sharer, no key.
        QVERIFY(w.start(QJsonObject{{QStringLiteral("adminToken"), QLatin1String(AdminToken)}}));
        Ui::MainWindow *window = w.window();
        Panel *panel = window->getStartedPanel();
        QVERIFY(panel->isVisible());
        for (int step = 0; step < Panel::StepCount; ++step)
            QVERIFY(!panel->isDone(Panel::Step(step)));
        QCOMPARE(panel->findChild<QLabel *>(QStringLiteral("getStartedSummary"))->text(), QStringLiteral("0 of 4 steps done."));

        // 1. Add a sharer: the button opens the Sharers page's dialog; the sharer is then added as
        // that dialog sends it (through the management API), and a model test passes.
        QTest::mouseClick(button(panel, "getStartedAddSharer"), Qt::LeftButton);
        QCOMPARE(window->tabs()->currentWidget(), static_cast<QWidget *>(window->sharersView()));
        QTRY_VERIFY(window->findChild<Ui::SharerDialog *>());
        window->findChild<Ui::SharerDialog *>()->reject();
        qputenv("AILE_TEST_UPSTREAM_KEY", "upstream-secret-value");
        const QString handle = QStringLiteral("L00000000000000a1");
        QCOMPARE(w.admin(QStringLiteral("POST"), QStringLiteral("/sharers"),
                         sharer(handle, QStringLiteral("openai"), upstream.baseUrl(), {QStringLiteral("gpt-5.2")},
                                {{QStringLiteral("tested"), QJsonArray()}}))
                     .status,
                 200);
        w.host()->requestStatus();
        QTRY_VERIFY(panel->isDone(Panel::AddSharer));
        QVERIFY(!panel->stepText(Panel::AddSharer).contains(QLatin1String("test passed")));
        QCOMPARE(
            w.admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/test").arg(handle), {{QStringLiteral("model"), QStringLiteral("gpt-5.2")}})
                .json()
                .value(QLatin1String("ok"))
                .toBool(),
            true);
        w.host()->requestStatus();
        QTRY_VERIFY(panel->stepText(Panel::AddSharer).contains(QLatin1String("a model test passed")));

        // 2. Create a key: the New key dialog of Connect a tool, which fills the key in.
        QTest::mouseClick(button(panel, "getStartedCreateKey"), Qt::LeftButton);
        Ui::NewKeyDialog *newKey = nullptr;
        QTRY_VERIFY((newKey = window->findChild<Ui::NewKeyDialog *>()));
        newKey->setKeyName(QStringLiteral("laptop"));
        QSignalSpy created(newKey, &Ui::NewKeyDialog::created);
        newKey->create();
        QVERIFY(created.wait(5000));
        const QString plain = created.first().at(2).toString();
        newKey->close();
        QTRY_VERIFY(panel->isDone(Panel::CreateKey));
        QVERIFY(!panel->isDone(Panel::ConnectTool));

        // 3. Connect a tool: the dialog, with the key filled in and a model the sharer offers.
        QTest::mouseClick(button(panel, "getStartedConnectTool"), Qt::LeftButton);
        Ui::ConnectToolDialog *connect = window->connectToolDialog();
        QTRY_VERIFY(connect->isVisible());
        connect->selectTool(Ui::ClientSnippets::Tool::Codex);
        QCOMPARE(connect->key(), plain);
        QCOMPARE(connect->model(), QStringLiteral("openai/gpt-5.2")); // never codex/gpt-5.5: no sharer has it
        QVERIFY(connect->blockText(0).contains(QLatin1String("model = \"openai/gpt-5.2\"")));

        // 4. Send a test request: it goes through the proxy to the fake upstream, and both last
        // steps tick from the trace the engine records; Show Traces opens the page.
        QSignalSpy tested(connect, &Ui::ConnectToolDialog::testFinished);
        QTest::mouseClick(button(panel, "getStartedTestRequest"), Qt::LeftButton);
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.first().at(0).toInt(), 200);
        // Codex's wire, on the openai sharer: the fake upstream got it as a Responses request.
        QCOMPARE(upstream.received().last().path, QByteArray("/v1/responses"));
        QCOMPARE(upstream.received().last().json().value(QLatin1String("model")).toString(), QStringLiteral("gpt-5.2"));
        QTRY_VERIFY(panel->isDone(Panel::ConnectTool));
        QTRY_VERIFY(panel->isDone(Panel::TestRequest));
        QVERIFY(panel->allDone());
        QVERIFY(panel->findChild<QLabel *>(QStringLiteral("getStartedSummary"))->text().startsWith(QLatin1String("All set")));
        connect->hide();
        QTest::mouseClick(button(panel, "getStartedShowTraces"), Qt::LeftButton);
        QCOMPARE(window->tabs()->currentWidget(), static_cast<QWidget *>(window->tracesView()));

        // Hidden by the user, shown again from the Help menu.
        QTest::mouseClick(panel->findChild<QToolButton *>(QStringLiteral("dismissGetStarted")), Qt::LeftButton);
        QVERIFY(!panel->isVisible());
        window->findChild<QAction *>(QStringLiteral("actionGetStarted"))->trigger();
        QVERIFY(panel->isVisible());
    }

    void addASharerPressedBeforeTheEnginesStatusOpensTheDialogWhenItComes()
    {
        // The dialog needs the engine's providers: pressed before the first status, the step
        // shows the Sharers page at once and opens the dialog when the status comes.
        WindowUnderTest w;
        bool disabledWhenPressed = false;
        bool dialogBeforeStatus = true;
        QVERIFY(w.start(QJsonObject{{QStringLiteral("adminToken"), QLatin1String(AdminToken)}}, [&] {
            Ui::MainWindow *window = w.window();
            disabledWhenPressed = !window->sharersView()->findChild<QPushButton *>(QStringLiteral("addSharerButton"))->isEnabled();
            Q_EMIT window->getStartedPanel()->addSharerRequested();
            dialogBeforeStatus = window->findChild<Ui::SharerDialog *>() != nullptr;
        }));
        QVERIFY(disabledWhenPressed);
        QVERIFY(!dialogBeforeStatus);
        QCOMPARE(w.window()->tabs()->currentWidget(), static_cast<QWidget *>(w.window()->sharersView()));
        QTRY_VERIFY(w.window()->findChild<Ui::SharerDialog *>());
        auto *dialog = w.window()->findChild<Ui::SharerDialog *>();
        QVERIFY(dialog->findChild<QComboBox *>(QStringLiteral("sharerProvider"))->findData(QStringLiteral("openai")) >= 0);
        dialog->reject();
    }

    void aStoreWithAnAnsweredRequestOpensWithoutIt()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        WindowUnderTest w;
        QVERIFY(w.start(basicConfig(upstream.baseUrl())));
        Panel *panel = w.window()->getStartedPanel();
        QCOMPARE(w.chat(QLatin1String(TestKey), QStringLiteral("openai/gpt-5.2")).status, 200);
        w.host()->requestStatus();
        QTRY_VERIFY(panel->allDone());
        // The window remembers that the user got through: the next one opens on the pages.
        Ui::MainWindow::Options options;
        options.settingsPath = w.settingsPath();
        options.showTrayIcon = false;
        Ui::MainWindow next(w.host(), options);
        QVERIFY(!next.getStartedPanel()->isVisibleTo(&next));
        QVERIFY(QSettings(w.settingsPath(), QSettings::IniFormat).value(QStringLiteral("getStarted/done")).toBool());
        // Help ▸ Open log folder is there when the app says where its log lives.
        QVERIFY(!next.findChild<QAction *>(QStringLiteral("actionOpenLogFolder"))->isEnabled());
    }
};

QTEST_MAIN(TestGetStarted)
#include "TestGetStarted.moc"
