#pragma once

#include <QtCore/QCoreApplication>
#include <QtCore/QString>

#include <functional>

class QWidget;

namespace Aile::Ui {

/// Asking before a step that cannot be undone (revoking a key, removing a route): a warning box,
/// non-modal, with Cancel as the default button.
class Confirm
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::Confirm)
public:
    /// Object names of the box, its destructive button and its Cancel button, for tests.
    struct Names
    {
        QString box;
        QString confirm;
        QString cancel;
    };
    /// Opens the box; then() runs only when the action's button is clicked.
    static void ask(QWidget *parent, const QString &title, const QString &text, const QString &action, const Names &names,
                    std::function<void()> then);
};

} // namespace Aile::Ui
