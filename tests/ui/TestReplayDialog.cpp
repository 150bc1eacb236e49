// docs/replay.md, the window: "Replay history…" in a route's dialog and in the key's Routing
// dialog opens the replay of the key's recorded requests with the edits not saved yet, shown
// beside what really happened, with a chart of the cost per day. Against the real engine on its
// own thread (as in the app) and the fake upstream; requests are recorded first through the proxy.
// AILE_REPLAY_SCREENSHOT=FILE saves the dialog as docs/screenshots/replay.png shows it.
#include "WindowUnderTest.h"
#include "host/EngineHost.h"
#include "keys/KeyRoutesPanel.h"
#include "keys/KeyRoutingDialog.h"
#include "keys/RoutesModel.h"
#include "keys/KeysModel.h"
#include "keys/KeysView.h"
#include "keys/ReplayDialog.h"
#include "keys/RouteDialog.h"
#include "keys/RouteTargetsTable.h"
#include "mainwindow/MainWindow.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCore/QJsonArray>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTreeWidget>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString Cheap = QStringLiteral("L00000000000000a1"); // openai gpt-5.2
const QString Dear = QStringLiteral("L00000000000000b1");  // openai gpt-5.5
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
} // namespace

class TestReplayDialog : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<WindowUnderTest> m_app;
    QString m_keyId;

    Ui::KeysView *view() const { return m_app->window()->keysView(); }

    Ui::ReplayDialog *clickReplay(QWidget *dialog, const char *button)
    {
        auto *b = dialog->findChild<QPushButton *>(QLatin1String(button));
        if (!b || !b->isEnabled())
            return nullptr;
        QTest::mouseClick(b, Qt::LeftButton);
        auto *replay = dialog->findChild<Ui::ReplayDialog *>();
        if (!replay)
            return nullptr;
        QSignalSpy answered(replay, &Ui::ReplayDialog::answered);
        return answered.wait(15000) ? replay : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
        m_upstream->setChooser([](const ReceivedRequest &r) -> std::optional<Script> {
            return FakeUpstream::chatCompletion(QStringLiteral("ok"), 12000, 800, r.json().value(QLatin1String("model")).toString());
        });
        const QJsonArray sharers{sharer(Cheap, QStringLiteral("openai"), m_upstream->baseUrl(), {QStringLiteral("gpt-5.2")}, percent(50)),
                                 sharer(Dear, QStringLiteral("openai"), m_upstream->baseUrl(), {QStringLiteral("gpt-5.5")}, percent(90))};
        m_app = std::make_unique<WindowUnderTest>();
        QVERIFY(m_app->start(configWith(sharers)));
        QVERIFY(m_app->openKeysPage());
        m_keyId = view()->model()->key(0).id;
        const QJsonArray routes{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("coding")},
                        {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}}}}}};
        QCOMPARE(m_app->admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + m_keyId, {{QStringLiteral("routes"), routes}}).status, 200);
        for (int i = 0; i < 12; ++i)
            QCOMPARE(m_app->chat(QLatin1String(TestKey), QStringLiteral("coding")).status, 200);
        view()->refresh();
        view()->selectKey(m_keyId);
        QTRY_COMPARE(view()->routesPanel()->model()->rowCount(), 1);
    }

    void theRouteDialogReplaysTheRouteAsEdited()
    {
        view()->selectKey(m_keyId);
        view()->routesPanel()->selectRoute(QStringLiteral("coding"));
        Ui::RouteDialog *dialog = view()->routesPanel()->editRoute();
        QVERIFY(dialog);
        QSignalSpy loaded(dialog, &Ui::RouteDialog::loaded);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(dialog->targets()->rowCount(), 1);
        // The edit, not saved: the target moves to the dearer model.
        dialog->targets()->modelBox(0)->setEditText(QStringLiteral("openai/gpt-5.5"));
        Ui::ReplayDialog *replay = clickReplay(dialog, "replayRouteHistory");
        QVERIFY(replay);
        const Api::ReplayResult r = replay->lastAnswer();
        QCOMPARE(r.replayed, 12);
        QCOMPARE(r.scope, QStringLiteral("route"));
        QVERIFY(r.actualUsd > 0);
        QVERIFY2(r.projectedUsd > r.actualUsd * 1.5, qPrintable(QStringLiteral("%1 vs %2").arg(r.projectedUsd).arg(r.actualUsd)));
        QCOMPARE(r.perTarget.value(QStringLiteral("openai/gpt-5.5")).second, 12);
        QCOMPARE(r.perTarget.value(QStringLiteral("openai/gpt-5.2")).first, 12);
        // Side by side: the comparison's cost row, the chart's two bar sets over the day, the changes.
        QTreeWidgetItem *cost = replay->comparison()->topLevelItem(0);
        QCOMPARE(cost->text(0), QStringLiteral("Cost"));
        QVERIFY(!cost->text(1).isEmpty() && cost->text(1) != cost->text(2));
        const QList<QAbstractSeries *> series = replay->chart()->series();
        QCOMPARE(series.size(), 1);
        auto *bars = qobject_cast<QBarSeries *>(series.first());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 2);
        QCOMPARE(bars->barSets().at(0)->count(), 1);
        QCOMPARE(replay->changes()->topLevelItemCount(), 5);
        QVERIFY(replay->summary().contains(QStringLiteral("12 requests that asked for route coding")));
        // Nothing was saved: the key still routes through gpt-5.2.
        const QJsonObject key = m_app->admin(QStringLiteral("GET"), QStringLiteral("/keys/") + m_keyId).json().value(QLatin1String("key")).toObject();
        QVERIFY(QJsonDocument(key.value(QLatin1String("routes")).toArray()).toJson().contains("gpt-5.2"));
        QVERIFY(!QJsonDocument(key.value(QLatin1String("routes")).toArray()).toJson().contains("gpt-5.5"));
        if (const QByteArray path = qgetenv("AILE_REPLAY_SCREENSHOT"); !path.isEmpty()) {
            replay->resize(980, 680);
            QVERIFY(replay->grab().save(QString::fromLocal8Bit(path)));
        }
        replay->close();
        dialog->close();
    }

    void theRoutingDialogReplaysTheSettingsAsEdited()
    {
        view()->selectKey(m_keyId);
        Ui::KeyRoutingDialog *dialog = view()->editRouting();
        QVERIFY(dialog);
        QSignalSpy loaded(dialog, &Ui::KeyRoutingDialog::loaded);
        QVERIFY(loaded.wait(5000));
        Ui::ReplayDialog *replay = clickReplay(dialog, "replayRoutingHistory");
        QVERIFY(replay);
        QCOMPARE(replay->lastAnswer().scope, QStringLiteral("asked"));
        QCOMPARE(replay->lastAnswer().replayed, 12);
        // As saved, the replay reproduces what happened.
        QCOMPARE(replay->lastAnswer().changed, 0);
        replay->close();
        dialog->close();
    }

    void cleanupTestCase()
    {
        m_app.reset();
        m_upstream.reset();
    }
};

QTEST_MAIN(TestReplayDialog)
#include "TestReplayDialog.moc"
