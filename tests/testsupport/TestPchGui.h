// The GUI tests' addition to TestPch.h: built with QT_WIDGETS_LIB defined, so QtTest's QTEST_MAIN
// makes a QApplication there.
#pragma once

#include <QtWidgets/QtWidgets>
