#pragma once

#include <QtCore/QLocale>

class QCoreApplication;

namespace Aile::Ui {

/// Installs the embedded translation matching the locale (French today) and Qt's own strings
/// for the standard dialogs when the system has them. Returns whether Aile's own was found;
/// English, the source language, needs none.
bool installTranslations(QCoreApplication *app, const QLocale &locale);

} // namespace Aile::Ui
