#include "ApplySettingsDialog.h"

#include <QtGui/QFontDatabase>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

using Clients::ToolConfigFile;

ApplySettingsDialog::ApplySettingsDialog(Mode mode, const ToolConfigFile::Preview &preview, const QString &toolName, QWidget *parent)
    : QDialog(parent), m_mode(mode), m_preview(preview), m_explanation(new QLabel(this)), m_diff(new QPlainTextEdit(this)),
      m_confirm(new QPushButton(this))
{
    setObjectName(QStringLiteral("applySettingsDialog"));
    const bool apply = mode == Mode::Apply;
    setWindowTitle(apply ? tr("Apply settings for %1").arg(toolName) : tr("Restore the settings of %1").arg(toolName));
    m_explanation->setObjectName(QStringLiteral("applyExplanation"));
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (apply)
        m_explanation->setText(tr("Aile will change %1 as shown below, and only Aile's own part of it. The file will hold your Aile key in "
                                  "full, as the tool needs it: that is what you are asking for (the preview shows only the key's start). "
                                  "The file as it is now is kept in %2, and \"Restore previous settings\" puts it back.")
                                   .arg(preview.path.toHtmlEscaped(), ToolConfigFile::backupPath(preview.path).toHtmlEscaped()));
    else
        m_explanation->setText(tr("Aile will put %1 back as it was before Aile changed it, as shown below.").arg(preview.path.toHtmlEscaped()));
    m_diff->setObjectName(QStringLiteral("applyDiff"));
    m_diff->setAccessibleName(tr("The change to the file"));
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setPlainText(preview.diff);

    auto *buttons = new QDialogButtonBox(this);
    m_confirm->setObjectName(QStringLiteral("confirmApply"));
    m_confirm->setText(apply ? tr("&Write the file") : tr("&Restore the file"));
    m_confirm->setDefault(true);
    buttons->addButton(m_confirm, QDialogButtonBox::AcceptRole);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setText(tr("Cancel"));
    connect(m_confirm, &QPushButton::clicked, this, &ApplySettingsDialog::confirm);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_explanation);
    layout->addWidget(m_diff, 1);
    layout->addWidget(buttons);
    resize(760, 520);
}

QString ApplySettingsDialog::diffText() const
{
    return m_diff->toPlainText();
}

QString ApplySettingsDialog::explanation() const
{
    return m_explanation->text();
}

void ApplySettingsDialog::confirm()
{
    const ToolConfigFile::Result r = m_mode == Mode::Apply ? ToolConfigFile::apply(m_preview) : ToolConfigFile::undo(m_preview.path);
    Q_EMIT written(r.ok, r.message);
    accept();
}

} // namespace Aile::Ui
