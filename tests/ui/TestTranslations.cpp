// The French translation is embedded in the binary and used when the locale is French.
#include "host/EngineHost.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/StatusBanner.h"
#include "mainwindow/Translations.h"
#include "sharers/SharerOrderModel.h"
#include "traces/TraceColumns.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTabWidget>

using namespace Aile;

class TestTranslations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theQmFileIsEmbedded() { QVERIFY(QFile::exists(QStringLiteral(":/i18n/aile_fr.qm"))); }

    void englishNeedsNoTranslation()
    {
        QVERIFY(!Ui::installTranslations(qApp, QLocale(QLocale::English, QLocale::UnitedStates)));
        QCOMPARE(Ui::TraceColumns::title(Ui::TraceColumns::Attempts), QStringLiteral("Attempts"));
    }

    void frenchLocaleShowsFrenchStrings()
    {
        QLocale::setDefault(QLocale(QLocale::French, QLocale::France));
        QVERIFY(Ui::installTranslations(qApp, QLocale(QLocale::French, QLocale::France)));
        QCOMPARE(Ui::TraceColumns::title(Ui::TraceColumns::Attempts), QStringLiteral("Tentatives"));
        Ui::SharerOrderModel sharers;
        QCOMPARE(sharers.headerData(Ui::SharerOrderModel::Provider, Qt::Horizontal).toString(), QStringLiteral("Fournisseur"));

        // A whole window, as a French user sees it before the engine answers.
        QTemporaryDir dir;
        EngineOptions options;
        options.dataDir = dir.filePath(QStringLiteral("data"));
        EngineHost host(options);
        Ui::MainWindow::Options windowOptions;
        windowOptions.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        windowOptions.showTrayIcon = false;
        Ui::MainWindow window(&host, windowOptions);
        QCOMPARE(window.tabs()->tabText(0), QStringLiteral("&Partageurs"));
        QCOMPARE(window.tabs()->tabText(2), QStringLiteral("&Graphiques"));
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("proxyStatus"))->text(), QStringLiteral("Démarrage du proxy…"));
        QVERIFY(window.findChild<QLabel *>(QStringLiteral("spentToday"))->text().startsWith(QStringLiteral("Aujourd’hui")));
    }
};

QTEST_MAIN(TestTranslations)
#include "TestTranslations.moc"
