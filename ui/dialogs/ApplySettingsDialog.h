#pragma once

#include "clients/ToolConfigFile.h"

#include <QtWidgets/QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Aile::Ui {

/// The step between "Apply for me" (or "Restore previous settings") and the write: which file,
/// the change as a diff (the key shown only by its start), that the file will hold the key, and
/// where the backup goes. Nothing is written until the user confirms; then the dialog writes
/// and reports through done() what happened (docs/gui.md, "Connect a tool").
class ApplySettingsDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Mode { Apply, Restore };
    ApplySettingsDialog(Mode mode, const Clients::ToolConfigFile::Preview &preview, const QString &toolName, QWidget *parent = nullptr);

    QString diffText() const;
    QString explanation() const;
    QPushButton *confirmButton() const { return m_confirm; }

Q_SIGNALS:
    /// After the write (or the refusal to write): ok and a sentence for the user.
    void written(bool ok, const QString &message);

private:
    void confirm();

    Mode m_mode;
    Clients::ToolConfigFile::Preview m_preview;
    QLabel *m_explanation;
    QPlainTextEdit *m_diff;
    QPushButton *m_confirm;
};

} // namespace Aile::Ui
