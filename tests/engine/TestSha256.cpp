// core/Sha256.h: OpenSSL's SHA-256, used where the hot path hashes by the kilobyte (a
// conversation's opening), gives QCryptographicHash's digest byte for byte: the pins it keys were
// made by the one and are looked up by the other across an upgrade.
#include "core/Sha256.h"

#include <QtCore/QCryptographicHash>
#include <QtTest/QtTest>

using namespace Aile;

class TestSha256 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theDigestIsQtsByteForByte_data()
    {
        QTest::addColumn<int>("size");
        // Around SHA-256's 64-byte blocks and its padding (a length that leaves under 9 bytes in a
        // block takes one more), and a conversation's size.
        for (int size : {0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100000})
            QTest::newRow(qPrintable(QString::number(size))) << size;
    }
    void theDigestIsQtsByteForByte()
    {
        QFETCH(int, size);
        QByteArray bytes(size, Qt::Uninitialized);
        for (int i = 0; i < size; ++i)
            bytes[i] = char((i * 131 + 7) % 251);
        const QByteArray expected = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
        QCOMPARE(Sha256::hash(bytes), expected);
        // Added in pieces of every length up to 70, the same.
        Sha256 pieces;
        for (int at = 0, step = 1; at < size; at += step, step = step % 70 + 1)
            pieces.addData(QByteArrayView(bytes).sliced(at, qMin(step, size - at)));
        QCOMPARE(pieces.result(), expected);
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "TestSha256.moc"
