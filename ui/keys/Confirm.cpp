#include "Confirm.h"

#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>

namespace Aile::Ui {

void Confirm::ask(QWidget *parent, const QString &title, const QString &text, const QString &action, const Names &names, std::function<void()> then)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::NoButton, parent);
    box->setObjectName(names.box);
    QPushButton *confirm = box->addButton(action, QMessageBox::DestructiveRole);
    confirm->setObjectName(names.confirm);
    QPushButton *cancel = box->addButton(tr("Cancel"), QMessageBox::RejectRole);
    cancel->setObjectName(names.cancel);
    box->setDefaultButton(cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::buttonClicked, parent, [confirm, then = std::move(then)](QAbstractButton *clicked) {
        if (clicked == confirm)
            then();
    });
    box->open();
}

} // namespace Aile::Ui
