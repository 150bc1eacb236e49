// The record side of a proxied request (engine/dispatch/RequestTrace): what an answer's
// x-aile-price says.
#include "dispatch/RequestTrace.h"

#include <QtTest/QtTest>

using namespace Aile;

class TestRequestTrace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Dollars per million tokens, input/output, four decimals: written on the stack since
    // docs/performance.md "Change 13 (record)", the same text as Qt's arg(value, 0, 'f', 4).
    void aPriceLabelIsInputSlashOutputWithFourDecimals_data()
    {
        QTest::addColumn<double>("input");
        QTest::addColumn<double>("output");
        QTest::addColumn<QString>("label");
        QTest::newRow("list prices") << 2.5 << 10.0 << QStringLiteral("2.5000/10.0000");
        QTest::newRow("cents") << 0.075 << 0.3 << QStringLiteral("0.0750/0.3000");
        QTest::newRow("free") << 0.0 << 0.0 << QStringLiteral("0.0000/0.0000");
        QTest::newRow("a negative zero") << -0.0 << 1.0 << QStringLiteral("0.0000/1.0000");
        QTest::newRow("rounded") << 0.123456 << 3.99996 << QStringLiteral("0.1235/4.0000");
        QTest::newRow("below the fourth decimal") << 0.00004 << 0.00006 << QStringLiteral("0.0000/0.0001");
        QTest::newRow("large") << 999999.99999 << 123456.789 << QStringLiteral("1000000.0000/123456.7890");
    }
    void aPriceLabelIsInputSlashOutputWithFourDecimals()
    {
        QFETCH(double, input);
        QFETCH(double, output);
        QFETCH(QString, label);
        Billing::Rates rates;
        rates.input = input;
        rates.output = output;
        QCOMPARE(Dispatch::priceLabel(rates), label);
        // The text Qt's formatting gives, which the label was before.
        QCOMPARE(Dispatch::priceLabel(rates), QStringLiteral("%1/%2").arg(input + 0.0, 0, 'f', 4).arg(output, 0, 'f', 4));
    }

    void anUnpricedSharerSaysSo() { QCOMPARE(Dispatch::priceLabel(std::nullopt), QStringLiteral("unpriced")); }
};

QTEST_GUILESS_MAIN(TestRequestTrace)
#include "TestRequestTrace.moc"
