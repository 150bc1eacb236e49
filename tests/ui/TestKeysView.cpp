// The Keys page and a key's Routing dialog against the real engine (on its own thread, as in the
// app) and the fake upstream: a key is created and shown once, it works through the proxy, it is
// revoked after a confirmation and the proxy refuses it; the Routing dialog saves every setting,
// reloads it, shows the engine's own message for a setting the engine refuses, and a request
// through the proxy honours a change at once, without a restart. Connect a tool creates a key too.
#include "WindowUnderTest.h"
#include "common/ManagementClient.h"
#include "host/EngineHost.h"
#include "dialogs/ConnectToolDialog.h"
#include "keys/DryRunDialog.h"
#include "keys/KeyRoutingDialog.h"
#include "keys/KeysModel.h"
#include "keys/KeysView.h"
#include "keys/NewKeyDialog.h"
#include "keys/SecretClipboard.h"
#include "mainwindow/MainWindow.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtGui/QClipboard>
#include <QtTest/QtTest>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableView>

using namespace Aile;
using namespace Aile::Test;

namespace {

const QString Cheap = QStringLiteral("L00000000000000a1"); // half of list
const QString Dear = QStringLiteral("L00000000000000a2");  // at list

void tick(QListWidget *list, const QString &handle, bool on)
{
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString().compare(handle, Qt::CaseInsensitive) == 0) {
            list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            return;
        }
    QFAIL(qPrintable(QStringLiteral("%1 is not in %2").arg(handle, list->objectName())));
}

} // namespace

class TestKeysView : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<WindowUnderTest> m_app;
    Ui::MainWindow *m_window = nullptr;
    EngineHost *m_host = nullptr;
    QString m_testKeyId;

    Ui::KeysView *view() const { return m_window->keysView(); }

    Reply chat(const QString &key) { return m_app->chat(key, QStringLiteral("openai/gpt-5.2")); }

    Reply admin(const QString &method, const QString &path, const QJsonObject &body = {}) { return m_app->admin(method, path, body); }

    Ui::KeyRoutingDialog *openRouting(const QString &keyId)
    {
        view()->selectKey(keyId);
        if (view()->selectedKeyId() != keyId)
            return nullptr;
        Ui::KeyRoutingDialog *dialog = view()->editRouting();
        if (!dialog)
            return nullptr;
        QSignalSpy loaded(dialog, &Ui::KeyRoutingDialog::loaded);
        if (!loaded.wait(5000))
            return nullptr;
        return dialog;
    }

    /// Saves and waits for the dialog to close on the engine's 200.
    bool saveAndWait(Ui::KeyRoutingDialog *dialog)
    {
        QSignalSpy saved(dialog, &Ui::KeyRoutingDialog::saved);
        QSignalSpy failed(dialog, &Ui::KeyRoutingDialog::saveFailed);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("saveRouting")), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return saved.count() + failed.count() > 0; }, 5000))
            qWarning("the engine did not answer the save");
        if (!failed.isEmpty())
            qWarning().noquote() << "the engine refused the routing:" << failed.first().at(0).toString();
        return saved.count() > 0;
    }

    /// Every text the window and its dialogs show.
    QStringList shownTexts() const
    {
        QStringList texts;
        for (QWidget *w : QApplication::allWidgets()) {
            if (auto *e = qobject_cast<QLineEdit *>(w))
                texts << e->text();
            else if (auto *l = qobject_cast<QLabel *>(w))
                texts << l->text();
            else if (auto *p = qobject_cast<QPlainTextEdit *>(w))
                texts << p->toPlainText();
        }
        const QAbstractItemModel *model = view()->table()->model();
        for (int row = 0; row < model->rowCount(); ++row)
            for (int column = 0; column < model->columnCount(); ++column)
                texts << model->index(row, column).data().toString();
        return texts;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
        const QJsonArray sharers{sharer(Cheap, QStringLiteral("openai"), m_upstream->baseUrl(), {QStringLiteral("gpt-5.2")},
                                        {{QStringLiteral("name"), QStringLiteral("cheap-one")},
                                         {QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}}}),
                                 sharer(Dear, QStringLiteral("openai"), m_upstream->baseUrl(), {QStringLiteral("gpt-5.2")},
                                        {{QStringLiteral("name"), QStringLiteral("dear-one")}})};
        m_app = std::make_unique<WindowUnderTest>();
        QVERIFY(m_app->start(configWith(sharers)));
        m_window = m_app->window();
        m_host = m_app->host();
        QVERIFY(m_app->openKeysPage());
        QCOMPARE(view()->model()->rowCount(), 1);
        m_testKeyId = view()->model()->key(0).id;
        QVERIFY(!m_testKeyId.isEmpty());
    }

    void init()
    {
        // Each case starts from the test key's defaults.
        if (!m_testKeyId.isEmpty())
            QCOMPARE(
                admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + m_testKeyId, QJsonObject{{QStringLiteral("routing"), QJsonObject()}}).status,
                200);
    }

    void cleanupTestCase()
    {
        m_app.reset();
        m_upstream.reset();
    }

    void listsTheKeysWithoutTheirSecret()
    {
        const QJsonObject key = view()->model()->key(0).toJson();
        QCOMPARE(key.value(QLatin1String("name")).toString(), QStringLiteral("test"));
        QCOMPARE(view()->model()->index(0, Ui::KeysModel::Name).data().toString(), QStringLiteral("test"));
        QVERIFY(view()->model()->index(0, Ui::KeysModel::Prefix).data().toString().startsWith(QLatin1String("sk-aile-")));
        QCOMPARE(view()->model()->index(0, Ui::KeysModel::State).data().toString(), QStringLiteral("active"));
        QCOMPARE(view()->model()->index(0, Ui::KeysModel::SpentToday).data().toString(), QStringLiteral("$0.00"));
        QVERIFY(!view()->model()->index(0, Ui::KeysModel::Created).data().toString().isEmpty());
        for (const QString &text : shownTexts())
            QVERIFY2(!text.contains(QLatin1String(TestKey)), qPrintable(text));
    }

    void aNewKeyIsShownOnceAndWorks()
    {
        Ui::NewKeyDialog *dialog = view()->newKey();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QPointer<Ui::NewKeyDialog> guard(dialog);
        QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("newKeyName")), QStringLiteral("laptop"));
        QSignalSpy created(dialog, &Ui::NewKeyDialog::created);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("createKey")), Qt::LeftButton);
        QVERIFY(created.wait(5000));
        const QString plain = dialog->plainKey();
        QVERIFY2(plain.startsWith(QLatin1String("sk-aile-")), qPrintable(plain));
        QCOMPARE(created.first().at(2).toString(), plain);
        const QString id = created.first().at(0).toString();

        // Copy puts it on the clipboard; a second Create makes no second key.
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("copyNewKey")), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), plain);
        QVERIFY(!dialog->findChild<QPushButton *>(QStringLiteral("createKey"))->isEnabled());

        // It works through the proxy at once.
        QCOMPARE(chat(plain).status, 200);

        // The list shows it by name and prefix, and nothing shows the key once the dialog is closed.
        QTRY_VERIFY(view()->model()->rowOf(id) >= 0);
        QCOMPARE(view()->selectedKeyId(), id);
        const int row = view()->model()->rowOf(id);
        QCOMPARE(view()->model()->index(row, Ui::KeysModel::Name).data().toString(), QStringLiteral("laptop"));
        QCOMPARE(view()->model()->index(row, Ui::KeysModel::Prefix).data().toString(), plain.left(12) + QStringLiteral("…"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("closeNewKey")), Qt::LeftButton);
        QTRY_VERIFY(guard.isNull());
        QGuiApplication::clipboard()->clear();
        for (const QString &text : shownTexts())
            QVERIFY2(!text.contains(plain), qPrintable(text));
        // Nor does the engine: the listing and the key itself carry no secret.
        QVERIFY(!admin(QStringLiteral("GET"), QStringLiteral("/keys")).body.contains(plain.toLatin1()));
        QVERIFY(!admin(QStringLiteral("GET"), QStringLiteral("/keys/") + id).body.contains(plain.toLatin1()));
        QVERIFY(!admin(QStringLiteral("GET"), QStringLiteral("/keys")).body.contains(QByteArray("\"hash\"")));
        // The spend of today shows on its row once the ledger has it.
        QTRY_VERIFY(view()->model()->index(view()->model()->rowOf(id), Ui::KeysModel::SpentToday).data().toString() != QStringLiteral("$0.00"));
    }

    void aCopiedKeyLeavesTheClipboardAfterAWhile_data()
    {
        QTest::addColumn<bool>("userCopiesSomethingElse");
        QTest::newRow("still there: cleared") << false;
        QTest::newRow("replaced by the user: untouched") << true;
    }
    void aCopiedKeyLeavesTheClipboardAfterAWhile()
    {
        QFETCH(bool, userCopiesSomethingElse);
        Ui::NewKeyDialog *dialog = view()->newKey();
        dialog->setClipboardClearAfter(std::chrono::milliseconds(200)); // 30 s in the app
        dialog->setKeyName(userCopiesSomethingElse ? QStringLiteral("clip-replaced") : QStringLiteral("clip-kept"));
        QSignalSpy created(dialog, &Ui::NewKeyDialog::created);
        dialog->create();
        QVERIFY(created.wait(5000));
        const QString plain = dialog->plainKey();
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("copyNewKey")), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), plain);
        const QList<Ui::SecretClipboard *> clearers = qApp->findChildren<Ui::SecretClipboard *>(QStringLiteral("secretClipboard"));
        QVERIFY(!clearers.isEmpty());
        QSignalSpy finished(clearers.last(), &Ui::SecretClipboard::finished);
        dialog->close(); // the clearing outlives the dialog
        if (userCopiesSomethingElse)
            QGuiApplication::clipboard()->setText(QStringLiteral("what the user copied since"));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().first().toBool(), !userCopiesSomethingElse);
        QCOMPARE(QGuiApplication::clipboard()->text(), userCopiesSomethingElse ? QStringLiteral("what the user copied since") : QString());
    }

    void aKeyWithoutANameIsNotSent()
    {
        Ui::NewKeyDialog *dialog = view()->newKey();
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("createKey")), Qt::LeftButton);
        QVERIFY(!dialog->message().isEmpty());
        QVERIFY(dialog->plainKey().isEmpty());
        dialog->close();
    }

    void revokingAKeyAsksFirstThenTheProxyRefusesIt()
    {
        // A key made for the purpose: created through the view's dialog.
        Ui::NewKeyDialog *dialog = view()->newKey();
        dialog->setKeyName(QStringLiteral("old-ci"));
        QSignalSpy created(dialog, &Ui::NewKeyDialog::created);
        dialog->create();
        QVERIFY(created.wait(5000));
        const QString id = created.first().at(0).toString();
        const QString plain = created.first().at(2).toString();
        dialog->close();
        QCOMPARE(chat(plain).status, 200);
        QTRY_VERIFY(view()->model()->rowOf(id) >= 0);
        view()->selectKey(id);
        QCOMPARE(view()->selectedKeyId(), id);

        // Cancel leaves it alone.
        view()->revokeSelected();
        auto *box = view()->findChild<QMessageBox *>(QStringLiteral("revokeConfirm"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QLatin1String("old-ci")));
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("cancelRevoke")), Qt::LeftButton);
        QTRY_VERIFY(!view()->findChild<QMessageBox *>(QStringLiteral("revokeConfirm")));
        QCOMPARE(chat(plain).status, 200);

        view()->revokeSelected();
        box = view()->findChild<QMessageBox *>(QStringLiteral("revokeConfirm"));
        QVERIFY(box);
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmRevoke")), Qt::LeftButton);
        QTRY_COMPARE(view()->model()->index(view()->model()->rowOf(id), Ui::KeysModel::State).data().toString(), QStringLiteral("revoked"));
        QVERIFY(view()->model()->index(view()->model()->rowOf(id), 0).data(Ui::KeysModel::RevokedRole).toBool());
        QVERIFY(view()->message().contains(QLatin1String("old-ci")));
        const Reply refused = chat(plain);
        QCOMPARE(refused.status, 401);
        // A revoked key has no Routing or Revoke to offer.
        view()->selectKey(id);
        QVERIFY(!view()->findChild<QPushButton *>(QStringLiteral("revokeKey"))->isEnabled());
        QVERIFY(!view()->findChild<QPushButton *>(QStringLiteral("keyRouting"))->isEnabled());
    }

    void aRoutingEditIsHonouredWithoutARestart()
    {
        // Cheapest first: the half-price sharer serves.
        Reply r = chat(QLatin1String(TestKey));
        QCOMPARE(r.status, 200);
        QCOMPARE(QString::fromLatin1(r.header("x-aile-sharer")), Cheap);

        // A price floor of 60% of list: the half-price sharer is too cheap to trust.
        Ui::KeyRoutingDialog *dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("floor"))->setValue(60);
        QVERIFY(saveAndWait(dialog));
        r = chat(QLatin1String(TestKey));
        QCOMPARE(r.status, 200);
        QCOMPARE(QString::fromLatin1(r.header("x-aile-sharer")), Dear);

        // And a price ceiling of 80% of list leaves nobody: the dear one is at list.
        dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QDoubleSpinBox *>(QStringLiteral("floor"))->value(), 60.0);
        auto *mode = dialog->findChild<QComboBox *>(QStringLiteral("ceilingMode"));
        mode->setCurrentIndex(mode->findData(int(Ui::KeyRoutingDialog::Ceiling::PercentOfList)));
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("ceiling"))->setValue(80);
        QVERIFY(saveAndWait(dialog));
        r = chat(QLatin1String(TestKey));
        QCOMPARE(r.status, 503);
        QVERIFY2(r.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .contains(QLatin1String("every sharer online")),
                 r.body.constData());

        // Back to the defaults: the cheap one again.
        dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        dialog->setRouting({});
        QVERIFY(saveAndWait(dialog));
        r = chat(QLatin1String(TestKey));
        QCOMPARE(QString::fromLatin1(r.header("x-aile-sharer")), Cheap);
    }

    void neverTheseSharersIsHonouredWithoutARestart()
    {
        Ui::KeyRoutingDialog *dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("neverSharers")), Cheap, true);
        QVERIFY(saveAndWait(dialog));
        QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/keys/") + m_testKeyId)
                     .json()
                     .value(QLatin1String("key"))
                     .toObject()
                     .value(QLatin1String("routing"))
                     .toObject()
                     .value(QLatin1String("neverSharers"))
                     .toArray(),
                 QJsonArray{Cheap});
        Reply r = chat(QLatin1String(TestKey));
        QCOMPARE(r.status, 200);
        QCOMPARE(QString::fromLatin1(r.header("x-aile-sharer")), Dear);

        dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        dialog->setRouting({});
        QVERIFY(saveAndWait(dialog));
    }

    void uncheckingPhaseLimitsClearsTheSetting()
    {
        // Each box of the dialog says what the key keeps: unticked is not stored, whatever was loaded.
        const auto stored = [&] {
            return admin(QStringLiteral("GET"), QStringLiteral("/keys/") + m_testKeyId)
                .json()
                .value(QLatin1String("key"))
                .toObject()
                .value(QLatin1String("routing"))
                .toObject();
        };
        Ui::KeyRoutingDialog *dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        auto *box = dialog->findChild<QCheckBox *>(QStringLiteral("phaseLimits"));
        QVERIFY(box);
        box->setChecked(true);
        QVERIFY(saveAndWait(dialog));
        QCOMPARE(stored().value(QLatin1String("phaseLimits")), QJsonValue(true));

        dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        box = dialog->findChild<QCheckBox *>(QStringLiteral("phaseLimits"));
        QVERIFY(box->isChecked());
        box->setChecked(false);
        QVERIFY(saveAndWait(dialog));
        const QJsonObject after = stored();
        QVERIFY2(!after.contains(QLatin1String("phaseLimits")), QJsonDocument(after).toJson(QJsonDocument::Compact).constData());
    }

    void aDryRunShowsTheOrderTheKeyWouldGetAndSendsNothing()
    {
        view()->selectKey(m_testKeyId);
        const int before = int(m_upstream->received().size());
        Ui::DryRunDialog *dialog = view()->dryRun();
        QVERIFY(dialog);
        dialog->setModel(QStringLiteral("openai/gpt-5.2"));
        QSignalSpy answered(dialog, &Ui::DryRunDialog::answered);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("dryRunButton")), Qt::LeftButton);
        QVERIFY(answered.wait(5000));
        QTreeWidget *tree = dialog->results();
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("openai/gpt-5.2"));
        // The cheap sharer first, as the next real request would go.
        QVERIFY2(tree->topLevelItem(0)->child(0)->text(0).contains(Cheap), qPrintable(tree->topLevelItem(0)->child(0)->text(0)));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(4), QStringLiteral("tried first"));
        QVERIFY(dialog->summary().contains(QLatin1String("Nothing was sent, charged or written")));
        QCOMPARE(int(m_upstream->received().size()), before);
        QCOMPARE(QString::fromLatin1(chat(QLatin1String(TestKey)).header("x-aile-sharer")), Cheap);
        dialog->close();
    }

    void theDialogShowsTheEnginesMessageForARefusedSetting()
    {
        Ui::KeyRoutingDialog *dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        QPointer<Ui::KeyRoutingDialog> guard(dialog);
        // A sharer both allowed and blocked: only the engine judges it.
        tick(dialog->findChild<QListWidget *>(QStringLiteral("onlySharers")), Dear, true);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("neverSharers")), Dear, true);
        const QJsonObject refused = dialog->routing().toJson();
        QSignalSpy failed(dialog, &Ui::KeyRoutingDialog::saveFailed);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("saveRouting")), Qt::LeftButton);
        QVERIFY(failed.wait(5000));
        // The same message the API gives a script.
        const Reply api = admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + m_testKeyId, QJsonObject{{QStringLiteral("routing"), refused}});
        QCOMPARE(api.status, 400);
        const QString message = api.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
        QVERIFY(!message.isEmpty());
        QCOMPARE(failed.first().at(0).toString(), message);
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("routingError"));
        QCOMPARE(error->text(), message);
        QVERIFY(error->isVisible());
        QVERIFY(dialog->isVisible()); // stays open to fix it

        // A floor above the key's own ceiling is refused the same way.
        tick(dialog->findChild<QListWidget *>(QStringLiteral("onlySharers")), Dear, false);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("neverSharers")), Dear, false);
        auto *mode = dialog->findChild<QComboBox *>(QStringLiteral("ceilingMode"));
        mode->setCurrentIndex(mode->findData(int(Ui::KeyRoutingDialog::Ceiling::PercentOfList)));
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("ceiling"))->setValue(50);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("floor"))->setValue(60);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("saveRouting")), Qt::LeftButton);
        QVERIFY(failed.wait(5000));
        QVERIFY(!error->text().isEmpty());
        QVERIFY(error->text() != message);
        // Nothing was saved.
        QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/keys/") + m_testKeyId)
                     .json()
                     .value(QLatin1String("key"))
                     .toObject()
                     .value(QLatin1String("routing"))
                     .toObject(),
                 QJsonObject());
        dialog->reject();
        QTRY_VERIFY(guard.isNull());
    }

    void everySettingIsSavedAndReloaded()
    {
        Ui::KeyRoutingDialog *dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        auto *mode = dialog->findChild<QComboBox *>(QStringLiteral("ceilingMode"));
        mode->setCurrentIndex(mode->findData(int(Ui::KeyRoutingDialog::Ceiling::PercentOfList)));
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("ceiling"))->setValue(90);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("floor"))->setValue(20);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("maxCost"))->setValue(0.5);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("spendLimit"))->setValue(25);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("neverProviders")), QStringLiteral("openai"), false);
        dialog->findChild<QCheckBox *>(QStringLiteral("noTraining"))->setChecked(false);
        dialog->findChild<QCheckBox *>(QStringLiteral("allowSelfHosted"))->setChecked(false);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("onlySharers")), Cheap, true);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("onlySharers")), Dear, true);
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerHandle"))->setText(QStringLiteral("L9f8e7d6c5b4a3f2e"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("blockHandle")), Qt::LeftButton);
        dialog->findChild<QCheckBox *>(QStringLiteral("preferSpeed"))->setChecked(true);
        dialog->findChild<QCheckBox *>(QStringLiteral("demoteFailing"))->setChecked(true);
        dialog->findChild<QCheckBox *>(QStringLiteral("sticky"))->setChecked(false);
        dialog->findChild<QCheckBox *>(QStringLiteral("verifiedOnly"))->setChecked(true);
        const QJsonObject sent = dialog->routing().toJson();
        QVERIFY(saveAndWait(dialog));

        // What the engine stored is what was sent.
        const QJsonObject stored = admin(QStringLiteral("GET"), QStringLiteral("/keys/") + m_testKeyId)
                                       .json()
                                       .value(QLatin1String("key"))
                                       .toObject()
                                       .value(QLatin1String("routing"))
                                       .toObject();
        for (auto it = sent.begin(); it != sent.end(); ++it)
            QVERIFY2(stored.value(it.key()) == it.value(), qPrintable(it.key()));

        // Reopened, the dialog shows every one of them.
        dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        QCOMPARE(dialog->routing().toJson(), stored);
        mode = dialog->findChild<QComboBox *>(QStringLiteral("ceilingMode"));
        QCOMPARE(mode->currentData().toInt(), int(Ui::KeyRoutingDialog::Ceiling::PercentOfList));
        QCOMPARE(dialog->findChild<QDoubleSpinBox *>(QStringLiteral("ceiling"))->value(), 90.0);
        QCOMPARE(dialog->findChild<QDoubleSpinBox *>(QStringLiteral("floor"))->value(), 20.0);
        QCOMPARE(dialog->findChild<QDoubleSpinBox *>(QStringLiteral("maxCost"))->value(), 0.5);
        QCOMPARE(dialog->findChild<QDoubleSpinBox *>(QStringLiteral("spendLimit"))->value(), 25.0);
        QVERIFY(!dialog->findChild<QCheckBox *>(QStringLiteral("allowSelfHosted"))->isChecked());
        QVERIFY(dialog->findChild<QCheckBox *>(QStringLiteral("preferSpeed"))->isChecked());
        QVERIFY(dialog->findChild<QCheckBox *>(QStringLiteral("demoteFailing"))->isChecked());
        QVERIFY(!dialog->findChild<QCheckBox *>(QStringLiteral("sticky"))->isChecked());
        QVERIFY(dialog->findChild<QCheckBox *>(QStringLiteral("verifiedOnly"))->isChecked());
        const QStringList only = [&] {
            QStringList out;
            auto *list = dialog->findChild<QListWidget *>(QStringLiteral("onlySharers"));
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->checkState() == Qt::Checked)
                    out << list->item(i)->data(Qt::UserRole).toString();
            return out;
        }();
        QCOMPARE(only, (QStringList{Cheap, Dear}));
        auto *never = dialog->findChild<QListWidget *>(QStringLiteral("neverSharers"));
        QCOMPARE(never->item(never->count() - 1)->data(Qt::UserRole).toString().toLower(), QStringLiteral("l9f8e7d6c5b4a3f2e"));
        QCOMPARE(never->item(never->count() - 1)->checkState(), Qt::Checked);

        // The other half: a provider left out, no training, a pin; then the defaults again.
        tick(dialog->findChild<QListWidget *>(QStringLiteral("onlySharers")), Cheap, false);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("onlySharers")), Dear, false);
        tick(dialog->findChild<QListWidget *>(QStringLiteral("neverSharers")), QStringLiteral("L9f8e7d6c5b4a3f2e"), false);
        auto *pin = dialog->findChild<QComboBox *>(QStringLiteral("pinSharer"));
        pin->setCurrentIndex(pin->findData(Dear));
        dialog->findChild<QCheckBox *>(QStringLiteral("noTraining"))->setChecked(true);
        const QJsonObject second = dialog->routing().toJson();
        QVERIFY(saveAndWait(dialog));
        dialog = openRouting(m_testKeyId);
        QVERIFY(dialog);
        QCOMPARE(dialog->routing().toJson(), second);
        QCOMPARE(dialog->findChild<QComboBox *>(QStringLiteral("pinSharer"))->currentData().toString(), Dear);
        QVERIFY(dialog->findChild<QCheckBox *>(QStringLiteral("noTraining"))->isChecked());
        dialog->setRouting({});
        QVERIFY(saveAndWait(dialog));
        // The list's routing line follows.
        QTRY_COMPARE(view()->model()->index(view()->model()->rowOf(m_testKeyId), Ui::KeysModel::Routing).data().toString(),
                     QStringLiteral("cheapest first (defaults)"));
    }

    void connectAToolCreatesAKeyAndUsesIt()
    {
        Ui::ConnectToolDialog *connect = m_window->connectToolDialog();
        connect->show();
        Ui::NewKeyDialog *dialog = connect->newKey();
        QVERIFY(dialog);
        dialog->setKeyName(QStringLiteral("codex"));
        QSignalSpy created(dialog, &Ui::NewKeyDialog::created);
        dialog->create();
        QVERIFY(created.wait(5000));
        const QString plain = created.first().at(2).toString();
        dialog->close();
        QCOMPARE(connect->key(), plain);
        QCOMPARE(connect->findChild<QComboBox *>(QStringLiteral("keyName"))->currentData().toString(), QStringLiteral("codex"));
        connect->selectTool(Ui::ClientSnippets::Tool::OpenAiSdk);
        QVERIFY(connect->blockText(0).contains(plain));
        connect->findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(QStringLiteral("openai/gpt-5.2"));
        QSignalSpy tested(connect, &Ui::ConnectToolDialog::testFinished);
        connect->testConnection();
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.first().at(0).toInt(), 200);
        // A status later (the key list refreshed), the key stays chosen and filled in.
        QSignalSpy status(m_host, &EngineHost::statusChanged);
        m_host->requestStatus();
        QVERIFY(status.wait(5000));
        QCOMPARE(connect->key(), plain);
        QTRY_VERIFY(view()->model()->rowCount() >= 4);
        connect->hide();
    }
};

QTEST_MAIN(TestKeysView)
#include "TestKeysView.moc"
