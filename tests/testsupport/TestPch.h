// The precompiled header every test reuses (tests/CMakeLists.txt, AILE_TEST_FAST_BUILD): the Qt
// headers most tests include. Only Qt here: a header of ours would rebuild every test on each edit.
#pragma once

#include <QtTest/QtTest>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
