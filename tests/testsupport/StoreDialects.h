#pragma once

// Store tests that run once per dialect: a "sqlite" row (":memory:") and a "postgresql" row (a
// fresh database on the shared test server, testsupport/TestPostgres).
#include "testsupport/TestPostgres.h"

#include <QtTest/QtTest>

namespace Aile::Test {

/// The `dialect` column of a test's _data() function, one row per dialect.
inline void addStoreDialects()
{
    QTest::addColumn<QString>("dialect");
    QTest::newRow("sqlite") << QStringLiteral("sqlite");
    QTest::newRow("postgresql") << QStringLiteral("postgresql");
}

} // namespace Aile::Test

// The location of a fresh, empty store of the row's dialect (databases named after prefix); QSKIP
// when PostgreSQL cannot run.
#define FRESH_STORE(location, prefix)                                                                                                                \
    QFETCH(QString, dialect);                                                                                                                        \
    QString location = QStringLiteral(":memory:");                                                                                                   \
    if (dialect == QLatin1String("postgresql")) {                                                                                                    \
        if (!Aile::Test::sharedPostgres().start())                                                                                                   \
            QSKIP(qPrintable(QStringLiteral("PostgreSQL cannot run here: ") + Aile::Test::sharedPostgres().skipReason()));                           \
        location = Aile::Test::sharedPostgres().createDatabase(QStringLiteral(prefix));                                                              \
    }
