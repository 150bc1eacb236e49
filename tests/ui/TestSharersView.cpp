// The Sharers page against the real engine (issue 3's "done when"): a newcomer adds two sharers of
// one provider at different prices through the dialog, tests a model on each with the button, and
// the table is in the very order `GET /sharers` answers over HTTP and `aile sharers` prints. Then
// edit, re-link, probe (a refused credential is a dead key), remove, the filters, a column click
// (a reading order, and the footer says so), and the credential kept in the opted-in 0600 file
// marked as such.
//
// The same binary, run with AILE_SHARERS_TEST_ROLE=no-keychain and a session bus that does not
// exist (see CMakeLists.txt), proves the page says plainly that no keychain answers.
#include "api/values/JsonFields.h"
#include "common/ManagementClient.h"
#include "host/EngineHost.h"
#include "dialogs/SharerDialog.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/StatusBanner.h"
#include "sharers/SharerOrderModel.h"
#include "sharers/SharersView.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QDateTime>
#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>

using namespace Aile;
using namespace Aile::Test;

namespace {

const QString Gpt = QStringLiteral("openai/gpt-5.2");

/// A window on a real engine on port 0, with the Sharers page in front.
struct Harness
{
    QTemporaryDir dir;
    std::unique_ptr<FakeUpstream> upstream;
    std::unique_ptr<EngineHost> host;
    std::unique_ptr<Ui::MainWindow> window;

    bool start(bool secretsFile)
    {
        upstream = std::make_unique<FakeUpstream>();
        if (!dir.isValid() || !upstream->listen())
            return false;
        const QString configPath = dir.filePath(QStringLiteral("config.json"));
        QFile config(configPath);
        if (!config.open(QIODevice::WriteOnly))
            return false;
        config.write(QJsonDocument(basicConfig(upstream->baseUrl())).toJson());
        config.close();
        EngineOptions options;
        options.dataDir = dir.filePath(QStringLiteral("data"));
        options.port = 0;
        options.configPath = configPath;
        if (secretsFile)
            options.fileSecretsPath = dir.filePath(QStringLiteral("secrets.json"));
        host = std::make_unique<EngineHost>(options);
        Ui::MainWindow::Options windowOptions;
        windowOptions.dataDir = options.dataDir;
        windowOptions.configPath = configPath;
        windowOptions.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        windowOptions.showTrayIcon = false;
        window = std::make_unique<Ui::MainWindow>(host.get(), windowOptions);
        window->tabs()->setCurrentWidget(window->sharersView());
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return false;
        host->start();
        return QTest::qWaitFor([this] { return window->banner()->state() == Ui::ProxyState::Listening; }, 10000);
    }

    void stop()
    {
        window.reset();
        host.reset();
        upstream.reset();
    }

    Ui::SharersView *view() const { return window->sharersView(); }
    template <typename T> T *child(const char *name) const { return window->findChild<T *>(QLatin1String(name)); }

    QStringList viewHandles() const
    {
        QStringList out;
        for (int row = 0; row < view()->model()->rowCount(); ++row)
            out << view()->model()->row(row).handle;
        return out;
    }
    QString cell(const QString &handle, int column) const { return view()->model()->index(view()->model()->rowOf(handle), column).data().toString(); }

    QJsonObject apiListing(const QString &query) const
    {
        const Reply r = send(QStringLiteral("GET"), window->baseUrl() + QStringLiteral("/sharers?") + query, {},
                             {{"authorization", QByteArray("Bearer ") + AdminToken}});
        return r.status == 200 ? r.json() : QJsonObject{{QStringLiteral("status"), r.status}};
    }

    /// Clicks "Add sharer…" and fills the dialog the way a user would; returns it still open.
    Ui::SharerDialog *openAddDialog(const QString &name, double percent, const QString &secret, bool toFile)
    {
        // Enabled once the engine's status (its providers) came: a user cannot open it sooner.
        if (!QTest::qWaitFor([&] { return child<QPushButton>("addSharerButton")->isEnabled(); }, 10000))
            return nullptr;
        QTest::mouseClick(child<QPushButton>("addSharerButton"), Qt::LeftButton);
        Ui::SharerDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = view()->findChild<Ui::SharerDialog *>()) && dialog->isVisible(); }, 5000))
            return nullptr;
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerName"))->setText(name);
        dialog->selectProvider(QStringLiteral("openai"));
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerBaseUrl"))->setText(upstream->baseUrl());
        dialog->findChild<QComboBox *>(QStringLiteral("sharerPriceMode"))->setCurrentIndex(1); // percent of list
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("sharerPercent"))->setValue(percent);
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerModels"))->setText(QStringLiteral("gpt-5.2, gpt-5.5"));
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerSecret"))->setText(secret);
        dialog->findChild<QCheckBox *>(QStringLiteral("sharerFileSecret"))->setChecked(toFile);
        return dialog;
    }

    static void clickOk(Ui::SharerDialog *dialog)
    {
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>(QStringLiteral("sharerButtons"))->button(QDialogButtonBox::Ok), Qt::LeftButton);
    }

    /// Selects a row and clicks a button; the answer shows in the message line.
    void click(const QString &handle, const char *button)
    {
        view()->selectHandle(handle);
        QTest::mouseClick(child<QPushButton>(button), Qt::LeftButton);
    }
    QString message() const { return child<QLabel>("sharersMessage")->text(); }
};

QStringList handles(const QJsonObject &listing)
{
    QStringList out;
    for (const QJsonValue &v : listing.value(QLatin1String("data")).toArray())
        out << v.toObject().value(QLatin1String("handle")).toString();
    return out;
}

QString handleNamed(const QJsonObject &listing, const QString &name)
{
    for (const QJsonValue &v : listing.value(QLatin1String("data")).toArray())
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject().value(QLatin1String("handle")).toString();
    return {};
}

} // namespace

class TestSharersView : public QObject
{
    Q_OBJECT

private:
    Harness h;
    QString m_cheap, m_dear;

    Ui::SharersView *view() const { return h.view(); }

    /// `aile sharers --model M --json` against the running engine, as a user would type it.
    QStringList cliOrder()
    {
        QProcess cli;
        cli.start(QStringLiteral(AILE_BIN), {QStringLiteral("sharers"), QStringLiteral("--model"), Gpt, QStringLiteral("--url"), h.window->baseUrl(),
                                             QStringLiteral("--admin-token-file"), adminTokenFile(), QStringLiteral("--json")});
        if (!QTest::qWaitFor([&] { return cli.state() == QProcess::NotRunning; }, 20000) || cli.exitCode() != 0)
            return {QStringLiteral("the CLI failed: ") + QString::fromUtf8(cli.readAllStandardError())};
        return handles(QJsonDocument::fromJson(cli.readAllStandardOutput()).object());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(h.start(true));
    }

    void cleanupTestCase() { h.stop(); }

    void addWaitsForTheEnginesStatus()
    {
        // Before the engine's status the dialog would list no provider and not know where a
        // secret can go: "Add sharer…" is enabled by the status, not by the connection alone.
        Ui::SharersView bare;
        Ui::ManagementClient client(h.host.get());
        bare.setClient(&client);
        auto *add = bare.findChild<QPushButton *>(QStringLiteral("addSharerButton"));
        QVERIFY(add);
        QVERIFY(!add->isEnabled());
        Api::EngineStatus status;
        Api::ProviderStatus openai;
        openai.id = QStringLiteral("openai");
        status.providers = {openai};
        bare.setStatus(status);
        QVERIFY(add->isEnabled());
    }

    void theDialogShowsTheEnginesErrorAndStaysOpen()
    {
        QPointer<Ui::SharerDialog> dialog = h.openAddDialog(QStringLiteral("broken"), 50, QStringLiteral("k"), true);
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerBaseUrl"))->setText(QStringLiteral("ftp://nowhere"));
        h.clickOk(dialog);
        QTRY_VERIFY(!dialog->error().isEmpty());
        QVERIFY2(dialog->error().contains(QLatin1String("must be an http:// or https:// URL")), qPrintable(dialog->error()));
        // A handle that is not L + 16 hex: the engine's words again.
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerBaseUrl"))->setText(h.upstream->baseUrl());
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerHandle"))->setText(QStringLiteral("L12"));
        h.clickOk(dialog);
        QTRY_VERIFY2(dialog->error().contains(QLatin1String("must be L followed by 16 hex digits")), qPrintable(dialog->error()));
        QVERIFY(dialog->isVisible());
        dialog->reject();
        QTRY_VERIFY(!dialog);
    }

    void addTwoSharersTestEachAndTheTableIsTheRoutingOrder()
    {
        h.child<QLineEdit>("sharersModelFilter")->setText(Gpt);
        view()->refresh();
        QTRY_COMPARE(view()->model()->rowCount(), 1); // openai-one at list price

        // One with a handle typed in any case (read as lower case), one without (the engine derives it).
        for (const auto &[name, percent] : {std::pair{QStringLiteral("dear"), 80.0}, std::pair{QStringLiteral("cheap"), 50.0}}) {
            QPointer<Ui::SharerDialog> dialog = h.openAddDialog(name, percent, QStringLiteral("sk-") + name, true);
            QVERIFY(dialog);
            if (name == QLatin1String("dear"))
                dialog->findChild<QLineEdit *>(QStringLiteral("sharerHandle"))->setText(QStringLiteral("L00000000000000DE"));
            h.clickOk(dialog);
            QTRY_VERIFY2(!dialog, qPrintable(dialog ? dialog->error() : QString()));
            QVERIFY2(h.message().startsWith(QLatin1String("Added ") + name), qPrintable(h.message()));
        }
        QTRY_COMPARE(view()->model()->rowCount(), 3);

        QJsonObject listing = h.apiListing(QStringLiteral("model=openai/gpt-5.2"));
        m_cheap = handleNamed(listing, QStringLiteral("cheap"));
        m_dear = handleNamed(listing, QStringLiteral("dear"));
        QCOMPARE(m_dear, QStringLiteral("L00000000000000de"));
        QVERIFY(m_cheap.startsWith(QLatin1Char('L')) && m_cheap.size() == 17);

        // Test gpt-5.2 on each new sharer with the button; the result is shown.
        for (const QString &handle : {m_dear, m_cheap}) {
            QCOMPARE(h.cell(handle, Ui::SharerOrderModel::Tested), QStringLiteral("not tested"));
            h.click(handle, "testModelButton");
            QInputDialog *ask = nullptr;
            QTRY_VERIFY((ask = view()->findChild<QInputDialog *>(QStringLiteral("testModelDialog"))));
            QCOMPARE(ask->textValue(), QStringLiteral("gpt-5.2"));
            QVERIFY(ask->comboBoxItems().contains(QStringLiteral("gpt-5.5"))); // what the sharer offers
            ask->accept();
            QTRY_VERIFY2(h.message().contains(QLatin1String("passed")), qPrintable(h.message()));
            QVERIFY(h.message().contains(handle));
        }

        // The engine over HTTP, the CLI and the page agree, row for row, and put the cheapest first.
        listing = h.apiListing(QStringLiteral("model=openai/gpt-5.2"));
        QCOMPARE(listing.value(QLatin1String("order")).toString(), QStringLiteral("routing"));
        const QStringList order = handles(listing);
        QCOMPARE(order, (QStringList{m_cheap, m_dear, QStringLiteral("L00000000000000a1")}));
        for (const QJsonValue &v : listing.value(QLatin1String("data")).toArray())
            QVERIFY(v.toObject().value(QLatin1String("tested")).toBool());
        QCOMPARE(cliOrder(), order);
        view()->refresh();
        QTRY_COMPARE(h.viewHandles(), order);
        QCOMPARE(view()->footer(), listing.value(QLatin1String("footer")).toString());
        QVERIFY(view()->footer().contains(QLatin1String("the top row is where the next request")));
        QCOMPARE(view()->model()->index(0, Ui::SharerOrderModel::Rank).data().toString(), QStringLiteral("1"));
        QCOMPARE(h.cell(m_cheap, Ui::SharerOrderModel::Tested), QStringLiteral("tested"));
        QCOMPARE(h.cell(m_cheap, Ui::SharerOrderModel::State), QStringLiteral("available"));
        QCOMPARE(h.cell(m_cheap, Ui::SharerOrderModel::PriceSheet), QStringLiteral("50% of list"));
        QCOMPARE(h.cell(m_cheap, Ui::SharerOrderModel::Provider), QStringLiteral("openai"));
        // The top row is where the next request goes.
        const Reply served =
            send(QStringLiteral("POST"), h.window->baseUrl() + QStringLiteral("/v1/chat/completions"),
                 QJsonDocument(QJsonObject{{QStringLiteral("model"), Gpt},
                                           {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                               {QStringLiteral("content"), QStringLiteral("hi")}}}}})
                     .toJson(),
                 {{"authorization", QByteArray("Bearer ") + TestKey}});
        QCOMPARE(served.status, 200);
        QCOMPARE(served.header("x-aile-sharer"), h.viewHandles().first().toLatin1());
    }

    void priorityWeightQuotaAndHealthAreShown()
    {
        // The provider's quota headers on an answer become the sharer's windows in the view.
        Script answer = FakeUpstream::chatCompletion();
        answer.headers.add("x-codex-primary-used-percent", "42");
        answer.headers.add("x-codex-primary-reset-at", QByteArray::number(QDateTime::currentSecsSinceEpoch() + 3600));
        answer.headers.add("x-codex-secondary-used-percent", "90");
        answer.headers.add("x-codex-secondary-reset-at", QByteArray::number(QDateTime::currentSecsSinceEpoch() + 7200));
        h.upstream->enqueue(answer);
        const Reply served =
            send(QStringLiteral("POST"), h.window->baseUrl() + QStringLiteral("/v1/chat/completions"),
                 QJsonDocument(QJsonObject{{QStringLiteral("model"), Gpt},
                                           {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                               {QStringLiteral("content"), QStringLiteral("hi")}}}}})
                     .toJson(),
                 {{"authorization", QByteArray("Bearer ") + TestKey}});
        QCOMPARE(served.status, 200);
        const QString handle = QString::fromLatin1(served.header("x-aile-sharer"));
        view()->refresh();
        QTRY_VERIFY2(h.cell(handle, Ui::SharerOrderModel::Quota).startsWith(QLatin1String("primary 42% used, resets ")),
                     qPrintable(h.cell(handle, Ui::SharerOrderModel::Quota)));
        QVERIFY2(h.cell(handle, Ui::SharerOrderModel::Quota).contains(QStringLiteral(" · secondary 90% used, resets ")),
                 qPrintable(h.cell(handle, Ui::SharerOrderModel::Quota)));
        // A window used up (it takes the sharer out until its reset, so not played through the engine here).
        const QJsonArray usedUp{QJsonObject{{QStringLiteral("name"), QStringLiteral("5h")},
                                            {QStringLiteral("exhausted"), true},
                                            {QStringLiteral("used"), 1.0},
                                            {QStringLiteral("fresh"), false}}};
        QCOMPARE(Ui::SharerOrderModel::quota(Api::Json::listOf<Api::QuotaWindow>(usedUp)), QStringLiteral("5h used up (older than 10 min)"));
        QVERIFY(h.cell(handle, Ui::SharerOrderModel::Health).startsWith(QLatin1String("not enough data (")));
        QVERIFY(h.cell(handle, Ui::SharerOrderModel::Health).endsWith(QLatin1String("/100 served)")));
        QCOMPARE(h.cell(handle, Ui::SharerOrderModel::Tier), QStringLiteral("0"));
        QCOMPARE(h.cell(handle, Ui::SharerOrderModel::Weight), QStringLiteral("1"));
        QCOMPARE(view()->model()->headerData(Ui::SharerOrderModel::Health, Qt::Horizontal).toString(), QStringLiteral("Health"));
    }

    void aCredentialInTheFileIsMarkedAsSuch()
    {
        // The two added above went to the opted-in 0600 file; openai-one reads an environment variable.
        for (const QJsonValue &v : h.apiListing(QStringLiteral("model=openai/gpt-5.2")).value(QLatin1String("data")).toArray()) {
            const QJsonObject row = v.toObject();
            const QString expected =
                row.value(QLatin1String("handle")).toString() == QLatin1String("L00000000000000a1") ? QStringLiteral("env") : QStringLiteral("file");
            QCOMPARE(row.value(QLatin1String("credentialStore")).toString(), expected);
        }
        const QModelIndex cheap = view()->model()->index(view()->model()->rowOf(m_cheap), Ui::SharerOrderModel::Credential);
        QCOMPARE(cheap.data().toString(), QStringLiteral("stored in a file"));
        QVERIFY(!cheap.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(cheap.data(Qt::ToolTipRole).toString().contains(QLatin1String("plain text")));
        QCOMPARE(h.cell(QStringLiteral("L00000000000000a1"), Ui::SharerOrderModel::Credential), QStringLiteral("environment variable"));
        QFile secrets(h.dir.filePath(QStringLiteral("secrets.json")));
        QVERIFY(secrets.exists());
        QCOMPARE(secrets.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther), QFile::Permissions());
    }

    void aColumnClickIsAReadingOrderAndTheFooterSaysSo()
    {
        auto *header = view()->table()->horizontalHeader();
        const QString routingFooter = view()->footer();
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(Ui::SharerOrderModel::Name) + 5, header->height() / 2));
        QTRY_VERIFY(view()->footer().contains(QLatin1String("a reading order, not the routing order")));
        QCOMPARE(h.viewHandles(), handles(h.apiListing(QStringLiteral("model=openai/gpt-5.2&sort=name"))));
        QCOMPARE(h.viewHandles().first(), m_cheap); // "cheap" < "dear" < "openai-one"
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(Ui::SharerOrderModel::Rank) + 5, header->height() / 2));
        QTRY_COMPARE(view()->footer(), routingFooter);
        QCOMPARE(h.viewHandles(), handles(h.apiListing(QStringLiteral("model=openai/gpt-5.2"))));
    }

    void theFiltersAreTheEnginesAndAFilteredSharerIsUnavailable()
    {
        auto *maxPrice = h.child<QLineEdit>("sharersMaxPrice");
        maxPrice->setText(QStringLiteral("60%"));
        view()->refresh();
        const QJsonObject listing = h.apiListing(QStringLiteral("model=openai/gpt-5.2&max-price=60%25"));
        QTRY_COMPARE(h.viewHandles(), handles(listing));
        QCOMPARE(h.cell(m_cheap, Ui::SharerOrderModel::State), QStringLiteral("available"));
        QVERIFY2(h.cell(m_dear, Ui::SharerOrderModel::State).startsWith(QLatin1String("unavailable: ")),
                 qPrintable(h.cell(m_dear, Ui::SharerOrderModel::State)));
        maxPrice->clear();

        // The provider filter, without a model: that provider's sharers by handle.
        h.child<QLineEdit>("sharersModelFilter")->clear();
        auto *provider = h.child<QComboBox>("sharersProviderFilter");
        provider->setCurrentIndex(provider->findData(QStringLiteral("claude")));
        view()->refresh();
        QTRY_COMPARE(h.viewHandles(), handles(h.apiListing(QStringLiteral("provider=claude"))));
        QCOMPARE(h.viewHandles(), QStringList{QStringLiteral("L00000000000000c1")});
        // Without a model, the Tested column lists the models tested on the sharer.
        QCOMPARE(h.cell(QStringLiteral("L00000000000000c1"), Ui::SharerOrderModel::Tested), QStringLiteral("claude-sonnet-5"));
        provider->setCurrentIndex(0);
        h.child<QLineEdit>("sharersModelFilter")->setText(Gpt);
        view()->refresh();
        QTRY_COMPARE(view()->model()->rowCount(), 3);
    }

    void editChangesThePriceAndTheOrder()
    {
        h.click(m_dear, "editSharerButton");
        Ui::SharerDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = view()->findChild<Ui::SharerDialog *>()) && dialog->isVisible());
        QPointer<Ui::SharerDialog> guard(dialog);
        // It starts from what the engine holds.
        QCOMPARE(dialog->findChild<QLineEdit *>(QStringLiteral("sharerName"))->text(), QStringLiteral("dear"));
        QCOMPARE(dialog->findChild<QDoubleSpinBox *>(QStringLiteral("sharerPercent"))->value(), 80.0);
        QVERIFY(dialog->findChild<QLineEdit *>(QStringLiteral("sharerHandle"))->isReadOnly());
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("sharerPercent"))->setValue(30);
        auto *policy = dialog->findChild<QComboBox *>(QStringLiteral("sharerDataCollection"));
        policy->setCurrentIndex(policy->findData(QStringLiteral("deny")));
        h.clickOk(dialog);
        QTRY_VERIFY(!guard);
        QVERIFY2(h.message().startsWith(QLatin1String("Saved dear")), qPrintable(h.message()));
        const QJsonObject listing = h.apiListing(QStringLiteral("model=openai/gpt-5.2"));
        QCOMPARE(handles(listing).first(), m_dear);
        QTRY_COMPARE(h.viewHandles(), handles(listing));
        QCOMPARE(cliOrder(), h.viewHandles());
        QCOMPARE(h.cell(m_dear, Ui::SharerOrderModel::PriceSheet), QStringLiteral("30% of list"));
        const Reply stored = send(QStringLiteral("GET"), h.window->baseUrl() + QStringLiteral("/sharers/") + m_dear, {},
                                  {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(stored.json().value(QLatin1String("dataCollection")).toString(), QStringLiteral("deny"));
    }

    void aRefusedProbeIsADeadKeyAndReLinkRestoresIt()
    {
        // The provider refuses dear's credential at a probe: a dead key, listed after the others.
        h.upstream->enqueueFor("sk-dear", FakeUpstream::error(401, QStringLiteral("invalid api key")));
        h.click(m_dear, "probeSharerButton");
        QTRY_VERIFY2(h.message().contains(QLatin1String("failed")), qPrintable(h.message()));
        QVERIFY(h.message().contains(QLatin1String("refused")));
        QTRY_COMPARE(h.cell(m_dear, Ui::SharerOrderModel::State), QStringLiteral("dead key"));
        QCOMPARE(h.viewHandles().last(), m_dear);
        QCOMPARE(h.viewHandles(), handles(h.apiListing(QStringLiteral("model=openai/gpt-5.2"))));

        // A probe that passes.
        h.click(m_cheap, "probeSharerButton");
        QTRY_VERIFY2(h.message().startsWith(QLatin1String("Probe of ") + m_cheap + QLatin1String(" passed")), qPrintable(h.message()));

        // Re-link with a new secret: it goes where the old one was (the file), and the key is alive again.
        h.click(m_dear, "relinkSharerButton");
        QInputDialog *ask = nullptr;
        QTRY_VERIFY((ask = view()->findChild<QInputDialog *>(QStringLiteral("relinkDialog"))));
        QVERIFY(ask->labelText().contains(QLatin1String("secrets file")));
        ask->setTextValue(QStringLiteral("sk-dear-2"));
        ask->accept();
        QTRY_COMPARE(h.message(), QStringLiteral("Re-linked %1.").arg(m_dear));
        QTRY_COMPARE(h.cell(m_dear, Ui::SharerOrderModel::State), QStringLiteral("available"));
        QCOMPARE(h.viewHandles().first(), m_dear);
        QCOMPARE(h.cell(m_dear, Ui::SharerOrderModel::Credential), QStringLiteral("stored in a file"));
        QVERIFY(!h.message().contains(QLatin1String("sk-dear")));
    }

    void aMovedSharerNeedsItsKeyAgain()
    {
        // Issue 14: a credential belongs to the base URL it was entered for. Moved through the API
        // without a new one, the credential column says so; moved back, it is usable again.
        const QList<QPair<QByteArray, QByteArray>> auth{{"authorization", QByteArray("Bearer ") + AdminToken}};
        const QString url = h.window->baseUrl() + QStringLiteral("/sharers/") + m_dear;
        const QString home = send(QStringLiteral("GET"), url, {}, auth).json().value(QLatin1String("baseUrl")).toString();
        const QByteArray moved = QJsonDocument(QJsonObject{{QStringLiteral("baseUrl"), QStringLiteral("https://moved.example/v1")}}).toJson();
        QCOMPARE(send(QStringLiteral("PUT"), url, moved, auth).status, 200);
        view()->refresh();
        QTRY_COMPARE(h.cell(m_dear, Ui::SharerOrderModel::Credential), QStringLiteral("needs its key again"));
        QCOMPARE(send(QStringLiteral("PUT"), url, QJsonDocument(QJsonObject{{QStringLiteral("baseUrl"), home}}).toJson(), auth).status, 200);
        view()->refresh();
        QTRY_COMPARE(h.cell(m_dear, Ui::SharerOrderModel::Credential), QStringLiteral("stored in a file"));
    }

    void aCustomProviderIsAddedByItsBaseUrl()
    {
        QTest::mouseClick(h.child<QPushButton>("addSharerButton"), Qt::LeftButton);
        Ui::SharerDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = view()->findChild<Ui::SharerDialog *>()) && dialog->isVisible());
        QPointer<Ui::SharerDialog> guard(dialog);
        dialog->selectProvider(QStringLiteral("custom:anthropic"));
        auto *id = dialog->findChild<QLineEdit *>(QStringLiteral("sharerCustomId"));
        QVERIFY(id->isVisible());
        id->setText(QStringLiteral("myco"));
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerName"))->setText(QStringLiteral("my company"));
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerBaseUrl"))->setText(h.upstream->baseUrl());
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerModels"))->setText(QStringLiteral("house-model"));
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerSecret"))->setText(QStringLiteral("env:AILE_TEST_UPSTREAM_KEY"));
        h.clickOk(dialog);
        QTRY_VERIFY2(!guard, qPrintable(guard ? guard->error() : QString()));
        // The provider is in the catalogue now, speaking Messages with x-api-key.
        const Reply config = send(QStringLiteral("GET"), h.window->baseUrl() + QStringLiteral("/admin/config"), {},
                                  {{"authorization", QByteArray("Bearer ") + AdminToken}});
        bool found = false;
        for (const QJsonValue &v : config.json().value(QLatin1String("providers")).toArray())
            if (v.toObject().value(QLatin1String("id")).toString() == QLatin1String("myco")) {
                found = true;
                QCOMPARE(v.toObject().value(QLatin1String("auth")).toString(), QStringLiteral("x-api-key"));
            }
        QVERIFY2(found, config.body.constData());
        const QJsonObject listing = h.apiListing(QStringLiteral("provider=myco"));
        QCOMPARE(listing.value(QLatin1String("data")).toArray().size(), 1);
        QCOMPARE(listing.value(QLatin1String("data")).toArray().first().toObject().value(QLatin1String("credentialStore")).toString(),
                 QStringLiteral("env"));
    }

    void removeAsksThenRemoves()
    {
        h.click(m_cheap, "removeSharerButton");
        QMessageBox *confirm = nullptr;
        QTRY_VERIFY((confirm = view()->findChild<QMessageBox *>(QStringLiteral("removeSharerConfirm"))));
        QVERIFY(confirm->text().contains(m_cheap));
        QTest::mouseClick(confirm->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_COMPARE(h.message(), QStringLiteral("Removed %1.").arg(m_cheap));
        QTRY_VERIFY(!h.viewHandles().contains(m_cheap));
        QCOMPARE(h.viewHandles(), handles(h.apiListing(QStringLiteral("model=openai/gpt-5.2"))));
        QCOMPARE(cliOrder(), h.viewHandles());
    }

    void aKeychainThatAnswersShowsNoBanner()
    {
        if (!qEnvironmentVariableIsSet("AILE_TEST_SECRET_SERVICE"))
            QSKIP("no Secret Service on this session bus (scripts/test.sh starts one)");
        QVERIFY(view()->keychainBanner().isEmpty());
        // A typed credential goes to the keychain, and the list says so.
        QPointer<Ui::SharerDialog> dialog = h.openAddDialog(QStringLiteral("kept"), 90, QStringLiteral("sk-kept"), false);
        QVERIFY(dialog);
        h.clickOk(dialog);
        QTRY_VERIFY2(!dialog, qPrintable(dialog ? dialog->error() : QString()));
        const QString kept = handleNamed(h.apiListing(QStringLiteral("model=openai/gpt-5.2")), QStringLiteral("kept"));
        QTRY_COMPARE(h.cell(kept, Ui::SharerOrderModel::Credential), QStringLiteral("keychain"));
        h.click(kept, "removeSharerButton");
        QMessageBox *confirm = nullptr;
        QTRY_VERIFY((confirm = view()->findChild<QMessageBox *>(QStringLiteral("removeSharerConfirm"))));
        QTest::mouseClick(confirm->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_VERIFY(!h.viewHandles().contains(kept));
    }
};

/// Run with DBUS_SESSION_BUS_ADDRESS pointing nowhere: no keychain can answer.
class TestSharersNoKeychain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void withoutAFileTheBannerSaysSoAndNothingIsStored()
    {
        Harness h;
        QVERIFY(h.start(false));
        auto *banner = h.window->findChild<QLabel *>(QStringLiteral("sharersKeychainBanner"));
        QTRY_VERIFY(banner->isVisible());
        QVERIFY2(view(h)->keychainBanner().startsWith(QLatin1String("No keychain answers on this system")), qPrintable(view(h)->keychainBanner()));
        QVERIFY(view(h)->keychainBanner().contains(QLatin1String("--secrets-file")));
        QVERIFY(view(h)->keychainBanner().contains(QLatin1String("nothing is written in plain text")));

        // The dialog says the same before anything is typed; the file cannot be chosen.
        QPointer<Ui::SharerDialog> dialog = h.openAddDialog(QStringLiteral("nowhere"), 50, QStringLiteral("sk-nowhere"), false);
        QVERIFY(dialog);
        QVERIFY(!dialog->findChild<QCheckBox *>(QStringLiteral("sharerFileSecret"))->isEnabled());
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("sharerSecretNote"))->text().startsWith(QLatin1String("No keychain answers")));
        // Saving anyway: the engine's own words, and the dialog stays open.
        h.clickOk(dialog);
        QTRY_VERIFY(!dialog->error().isEmpty());
        QVERIFY2(dialog->error().contains(QLatin1String("no keychain answers")), qPrintable(dialog->error()));
        QVERIFY(dialog->isVisible());
        dialog->reject();
        const QStringList files = QDir(h.dir.path()).entryList(QDir::Files);
        QVERIFY2(!files.contains(QStringLiteral("secrets.json")), qPrintable(files.join(QLatin1Char(' '))));
        h.stop();
    }

    void withTheOptedInFileTheBannerNamesIt()
    {
        Harness h;
        QVERIFY(h.start(true));
        auto *banner = h.window->findChild<QLabel *>(QStringLiteral("sharersKeychainBanner"));
        QTRY_VERIFY(banner->isVisible());
        QVERIFY(view(h)->keychainBanner().contains(h.dir.filePath(QStringLiteral("secrets.json"))));
        QPointer<Ui::SharerDialog> dialog = h.openAddDialog(QStringLiteral("filed"), 50, QStringLiteral("sk-filed"), true);
        QVERIFY(dialog);
        QVERIFY(dialog->findChild<QCheckBox *>(QStringLiteral("sharerFileSecret"))->isEnabled());
        h.clickOk(dialog);
        QTRY_VERIFY2(!dialog, qPrintable(dialog ? dialog->error() : QString()));
        h.child<QLineEdit>("sharersModelFilter")->setText(Gpt);
        view(h)->refresh();
        const QString filed = handleNamed(h.apiListing(QStringLiteral("model=openai/gpt-5.2")), QStringLiteral("filed"));
        QTRY_COMPARE(h.cell(filed, Ui::SharerOrderModel::Credential), QStringLiteral("stored in a file"));
        h.stop();
    }

private:
    static Ui::SharersView *view(const Harness &h) { return h.view(); }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QTEST_SET_MAIN_SOURCE_PATH
    if (qgetenv("AILE_SHARERS_TEST_ROLE") == "no-keychain") {
        TestSharersNoKeychain test;
        return QTest::qExec(&test, argc, argv);
    }
    TestSharersView test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestSharersView.moc"
