// The Sharers page against the real engine: two sharers of one provider added through the dialog
// at different prices, a model tested on each with the button, and the table in the very order
// `GET /sharers` answers over HTTP. A column click gives a reading order and the footer says so.
#include "core/EngineHost.h"
#include "dialogs/SharerDialog.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/StatusBanner.h"
#include "sharers/SharerOrderModel.h"
#include "sharers/SharersView.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>
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
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>

using namespace Aile;
using namespace Aile::Test;

class TestSharersView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<EngineHost> m_host;
    std::unique_ptr<Ui::MainWindow> m_window;

    Ui::SharersView *view() const { return m_window->sharersView(); }
    template<typename T>
    T *child(const char *name) const { return m_window->findChild<T *>(QLatin1String(name)); }

    QStringList viewHandles() const
    {
        QStringList out;
        for (int row = 0; row < view()->model()->rowCount(); ++row)
            out << view()->model()->row(row).value(QLatin1String("handle")).toString();
        return out;
    }

    QJsonObject apiListing(const QString &query) const
    {
        const Reply r = send(QStringLiteral("GET"), m_window->baseUrl() + QStringLiteral("/sharers?") + query, {},
                             {{"authorization", QByteArray("Bearer ") + AdminToken}});
        return r.status == 200 ? r.json() : QJsonObject{{QStringLiteral("status"), r.status}};
    }

    static QStringList handles(const QJsonObject &listing)
    {
        QStringList out;
        for (const QJsonValue &v : listing.value(QLatin1String("data")).toArray())
            out << v.toObject().value(QLatin1String("handle")).toString();
        return out;
    }

    /// Clicks "Add sharer…" and fills the dialog the way a user would; returns it still open.
    Ui::SharerDialog *openAddDialog(const QString &name, const QString &baseUrl, double percent, const QString &secret)
    {
        QTest::mouseClick(child<QPushButton>("addSharerButton"), Qt::LeftButton);
        Ui::SharerDialog *dialog = nullptr;
        [&] { QTRY_VERIFY((dialog = view()->findChild<Ui::SharerDialog *>()) && dialog->isVisible()); }();
        if (!dialog)
            return nullptr;
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerName"))->setText(name);
        dialog->findChild<QComboBox *>(QStringLiteral("sharerProvider"))->setCurrentText(QStringLiteral("openai"));
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerBaseUrl"))->setText(baseUrl);
        dialog->findChild<QComboBox *>(QStringLiteral("sharerPriceMode"))->setCurrentIndex(1);   // percent of list
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("sharerPercent"))->setValue(percent);
        dialog->findChild<QLineEdit *>(QStringLiteral("sharerModels"))->setText(QStringLiteral("gpt-5.2, gpt-5.5"));
        auto *secretEdit = dialog->findChild<QLineEdit *>(QStringLiteral("sharerSecret"));
        secretEdit->setText(secret);
        // No keychain answers offscreen: the user opts in to the 0600 file.
        dialog->findChild<QCheckBox *>(QStringLiteral("sharerFileSecret"))->setChecked(true);
        return dialog;
    }

    static void clickOk(Ui::SharerDialog *dialog)
    {
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>(QStringLiteral("sharerButtons"))->button(QDialogButtonBox::Ok), Qt::LeftButton);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(m_dir.isValid());
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
        const QString configPath = m_dir.filePath(QStringLiteral("config.json"));
        QFile config(configPath);
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QJsonDocument(basicConfig(m_upstream->baseUrl())).toJson());
        config.close();

        EngineOptions options;
        options.dataDir = m_dir.filePath(QStringLiteral("data"));
        options.port = 0;
        options.configPath = configPath;
        options.fileSecretsPath = m_dir.filePath(QStringLiteral("secrets.json"));
        m_host = std::make_unique<EngineHost>(options);
        Ui::MainWindow::Options windowOptions;
        windowOptions.dataDir = options.dataDir;
        windowOptions.configPath = configPath;
        windowOptions.settingsPath = m_dir.filePath(QStringLiteral("settings.ini"));
        windowOptions.showTrayIcon = false;
        m_window = std::make_unique<Ui::MainWindow>(m_host.get(), windowOptions);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_host->start();
        QTRY_COMPARE(m_window->banner()->state(), Ui::ProxyState::Listening);
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_host.reset();
        m_upstream.reset();
    }

    void theDialogShowsTheEnginesErrorAndStaysOpen()
    {
        QPointer<Ui::SharerDialog> dialog = openAddDialog(QStringLiteral("broken"), QStringLiteral("ftp://nowhere"), 50, QStringLiteral("k"));
        QVERIFY(dialog);
        clickOk(dialog);
        QTRY_VERIFY(!dialog->error().isEmpty());
        QVERIFY2(dialog->error().contains(QLatin1String("must be an http:// or https:// URL")), qPrintable(dialog->error()));
        QVERIFY(dialog->isVisible());
        dialog->reject();
        QTRY_VERIFY(!dialog);
    }

    void addTwoSharersTestEachAndTheTableIsTheRoutingOrder()
    {
        child<QLineEdit>("sharersModelFilter")->setText(QStringLiteral("openai/gpt-5.2"));
        view()->refresh();
        QTRY_COMPARE(view()->model()->rowCount(), 1);   // openai-one at list price

        for (const auto &[name, percent] : {std::pair{QStringLiteral("dear"), 80.0}, std::pair{QStringLiteral("cheap"), 50.0}}) {
            QPointer<Ui::SharerDialog> dialog = openAddDialog(name, m_upstream->baseUrl(), percent, QStringLiteral("sk-") + name);
            QVERIFY(dialog);
            clickOk(dialog);
            QTRY_VERIFY2(!dialog, qPrintable(dialog ? dialog->error() : QString()));
        }
        QTRY_COMPARE(view()->model()->rowCount(), 3);

        // Test gpt-5.2 on each new sharer with the button; the result is shown.
        QJsonObject listing = apiListing(QStringLiteral("model=openai/gpt-5.2"));
        for (const QJsonValue &v : listing.value(QLatin1String("data")).toArray()) {
            const QJsonObject row = v.toObject();
            if (row.value(QLatin1String("name")).toString() == QLatin1String("openai-one"))
                continue;
            const QString handle = row.value(QLatin1String("handle")).toString();
            QCOMPARE(row.value(QLatin1String("tested")).toBool(), false);
            view()->selectHandle(handle);
            QCOMPARE(view()->selectedHandle(), handle);
            QTest::mouseClick(child<QPushButton>("testModelButton"), Qt::LeftButton);
            QInputDialog *ask = nullptr;
            QTRY_VERIFY((ask = view()->findChild<QInputDialog *>(QStringLiteral("testModelDialog"))));
            QCOMPARE(ask->textValue(), QStringLiteral("gpt-5.2"));
            ask->accept();
            auto *message = child<QLabel>("sharersMessage");
            QTRY_VERIFY2(message->text().contains(QLatin1String("passed")), qPrintable(message->text()));
            QVERIFY(message->text().contains(handle));
        }

        // The engine over HTTP and the page agree, row for row, and both put the cheapest first.
        listing = apiListing(QStringLiteral("model=openai/gpt-5.2"));
        QCOMPARE(listing.value(QLatin1String("order")).toString(), QStringLiteral("routing"));
        const QStringList order = handles(listing);
        QCOMPARE(order.size(), 3);
        const QJsonArray rows = listing.value(QLatin1String("data")).toArray();
        QStringList names;
        for (const QJsonValue &v : rows) {
            names << v.toObject().value(QLatin1String("name")).toString();
            QVERIFY(v.toObject().value(QLatin1String("name")).toString() == QLatin1String("openai-one")
                    || v.toObject().value(QLatin1String("tested")).toBool());
        }
        QCOMPARE(names, (QStringList{QStringLiteral("cheap"), QStringLiteral("dear"), QStringLiteral("openai-one")}));
        view()->refresh();
        QTRY_COMPARE(viewHandles(), order);
        QCOMPARE(view()->footer(), listing.value(QLatin1String("footer")).toString());
        QCOMPARE(view()->model()->index(0, Ui::SharerOrderModel::Rank).data().toString(), QStringLiteral("1"));
        QCOMPARE(view()->model()->index(0, Ui::SharerOrderModel::Tested).data().toString(), QStringLiteral("tested"));
        QCOMPARE(view()->model()->index(0, Ui::SharerOrderModel::State).data().toString(), QStringLiteral("available"));
    }

    void aColumnClickIsAReadingOrderAndTheFooterSaysSo()
    {
        auto *header = view()->table()->horizontalHeader();
        const QString routingFooter = view()->footer();
        QSignalSpy listed(view(), &Ui::SharersView::listed);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(Ui::SharerOrderModel::Name) + 5, header->height() / 2));
        QTRY_VERIFY(view()->footer().contains(QLatin1String("a reading order, not the routing order")));
        QCOMPARE(viewHandles(), handles(apiListing(QStringLiteral("model=openai/gpt-5.2&sort=name"))));
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(Ui::SharerOrderModel::Rank) + 5, header->height() / 2));
        QTRY_COMPARE(view()->footer(), routingFooter);
        QCOMPARE(viewHandles(), handles(apiListing(QStringLiteral("model=openai/gpt-5.2"))));
    }

    void theFiltersAreTheEnginesAndAFilteredSharerIsUnavailable()
    {
        child<QLineEdit>("sharersMaxPrice")->setText(QStringLiteral("0.0000001"));
        view()->refresh();
        const QJsonObject listing = apiListing(QStringLiteral("model=openai/gpt-5.2&max-price=0.0000001"));
        QTRY_COMPARE(viewHandles(), handles(listing));
        for (int row = 0; row < view()->model()->rowCount(); ++row) {
            const QJsonObject r = view()->model()->row(row);
            if (!r.value(QLatin1String("available")).toBool())
                QVERIFY(view()->model()->index(row, Ui::SharerOrderModel::State).data().toString().startsWith(QLatin1String("unavailable: ")));
        }
        child<QLineEdit>("sharersMaxPrice")->clear();
        view()->refresh();
    }
};

QTEST_MAIN(TestSharersView)
#include "TestSharersView.moc"
